#!/bin/bash
# Llama 3 8B on 2 nodes of 8 H100, FP8 (written for ParaScope's tests in the style of Megatron-LM's
# examples/llama/train_llama3_8b_h100_fp8.sh: torchrun, bash arrays, variables).

export CUDA_DEVICE_MAX_CONNECTIONS=1

GPUS_PER_NODE=8
NUM_NODES=2
MASTER_ADDR=${MASTER_ADDR:-localhost}
TP=2
PP=2
SEQ=8192
CHECKPOINT_PATH=$1

DISTRIBUTED_ARGS=(
    --nproc_per_node $GPUS_PER_NODE
    --nnodes $NUM_NODES
    --master_addr $MASTER_ADDR
    --master_port 6000
)

MODEL_ARGS=(
    --use-mcore-models
    --num-layers 32
    --hidden-size 4096
    --ffn-hidden-size 14336
    --num-attention-heads 32
    --group-query-attention
    --num-query-groups 8
    --kv-channels 128
    --seq-length $SEQ
    --max-position-embeddings $SEQ
    --position-embedding-type rope
    --rotary-base 500000
    --normalization RMSNorm
    --swiglu
    --untie-embeddings-and-output-weights
    --disable-bias-linear   # Llama has no biases
    --tokenizer-type HuggingFaceTokenizer
    --tokenizer-model meta-llama/Meta-Llama-3-8B
)

TRAINING_ARGS=(
    --micro-batch-size 1
    --global-batch-size 128
    --train-iters 25000
    --lr 3.0e-4 --min-lr 3.0e-5 --lr-decay-style cosine
    --weight-decay 0.1
    --bf16
    --fp8-format hybrid
    --fp8-recipe tensorwise
    --recompute-granularity selective
    --recompute-modules core_attn layernorm
)

MODEL_PARALLEL_ARGS=(
    --tensor-model-parallel-size $TP
    --pipeline-model-parallel-size $PP
    --sequence-parallel
    --use-distributed-optimizer
    --overlap-grad-reduce
    --overlap-param-gather
)

torchrun ${DISTRIBUTED_ARGS[@]} pretrain_gpt.py \
    ${MODEL_ARGS[@]} \
    ${TRAINING_ARGS[@]} \
    ${MODEL_PARALLEL_ARGS[@]} \
    --save $CHECKPOINT_PATH \
    --load $CHECKPOINT_PATH
