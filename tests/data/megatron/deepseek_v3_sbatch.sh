#!/bin/bash
# DeepSeek-V3 with Megatron-FSDP on 32 nodes of 8 GPUs: written for ParaScope's tests in the
# shape of NVIDIA's sbatch examples (Megatron-LM examples/megatron_fsdp): arguments gathered in
# an array, extended in a branch by re-assigning it, a command string run by `bash -c` inside a
# here-document given to sbatch.

MEGATRON_PATH=${MEGATRON_PATH:-"/workspace/megatron-lm"}
OUTPUT_PATH=${OUTPUT_PATH:-"/results"}
USE_MEGATRON_FSDP=${USE_MEGATRON_FSDP:-1}
TP=${TP:-1}
EP=${EP:-8}

PRETRAIN_ARGS=(
    --tensor-model-parallel-size ${TP}
    --expert-model-parallel-size ${EP}
    --expert-tensor-parallel-size 1
    --sequence-parallel
    --micro-batch-size 1
    --global-batch-size 2048
    --rampup-batch-size 16 16 5859375
    --recompute-granularity selective
    --recompute-modules mla_up_proj layernorm moe_act
    --seq-length 4096
    --tokenizer-type HuggingFaceTokenizer
    --tokenizer-model deepseek-ai/DeepSeek-V3
    --num-layers 61
    --hidden-size 7168
    --ffn-hidden-size 18432
    --num-attention-heads 128
    --position-embedding-type rope
    --make-vocab-size-divisible-by 3232
    --normalization RMSNorm
    --swiglu
    --untie-embeddings-and-output-weights
    --multi-latent-attention
    --qk-layernorm
    --num-experts 256
    --moe-layer-freq [0]*3+[1]*58
    --moe-ffn-hidden-size 2048
    --moe-shared-expert-intermediate-size 2048
    --moe-router-topk 8
    --moe-token-dispatcher-type flex
    --moe-flex-dispatcher-backend hybridep
    --moe-grouped-gemm
    --moe-router-enable-expert-bias
    --moe-router-force-load-balancing
    --q-lora-rank 1536
    --kv-lora-rank 512
    --qk-head-dim 128
    --qk-pos-emb-head-dim 64
    --v-head-dim 128
    --mtp-num-layers 1
    --disable-bias-linear
    --bf16
    --save ${OUTPUT_PATH}/checkpoints
)

if [ "${USE_MEGATRON_FSDP}" = 1 ]; then
    PRETRAIN_ARGS=(
        "${PRETRAIN_ARGS[@]}"
        --use-megatron-fsdp
        --data-parallel-sharding-strategy optim_grads_params
        --use-distributed-optimizer
    )
fi

TRAINING_CMD="
cd ${MEGATRON_PATH};
export PYTHONPATH=${MEGATRON_PATH}:${PYTHONPATH};
python ${MEGATRON_PATH}/pretrain_gpt.py ${PRETRAIN_ARGS[@]}"

mkdir -p ${OUTPUT_PATH}/logs || {
    echo "cannot create ${OUTPUT_PATH}/logs"
    exit 1
}

sbatch <<EOT
#!/bin/bash
#SBATCH --nodes=32
#SBATCH --ntasks-per-node=8

srun --mpi=pmix -l \
    --container-workdir=${MEGATRON_PATH} \
    bash -x -c "${TRAINING_CMD}" 2>&1 | tee ${OUTPUT_PATH}/logs/\${SLURM_JOB_ID}.log
EOT
