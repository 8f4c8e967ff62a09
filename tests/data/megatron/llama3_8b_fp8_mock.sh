#!/bin/bash
# Llama 3 8B, FP8, mock data: written for ParaScope's tests in the shape of NVIDIA's launch
# scripts (Megatron-LM examples/llama): positional defaults, arrays filled in branches, quoted
# multi-word elements, an array appended to another, a commented-out element, help text that
# names flags, an array never passed on, and the launcher taking the arrays unquoted.

CHECKPOINT_PATH=${1:-"checkpoints/llama3_8b_fp8"}
TOKENIZER_ARG=${2:-"MOCK"} # a tokenizer path, or MOCK
DTYPE=${DTYPE:-fp8}

mkdir -p "$(dirname "$CHECKPOINT_PATH")"

usage() {
    echo "usage: $0 [CHECKPOINT] [TOKENIZER]"
    echo "  edit --tensor-model-parallel-size 8 below for bigger runs"
}

GPUS_PER_NODE=8
NUM_NODES=2
WORLD_SIZE=$(($GPUS_PER_NODE*$NUM_NODES))

MODEL_ARGS=(
    --num-layers 32
    --hidden-size 4096 --ffn-hidden-size 14336
    --num-attention-heads 32 --group-query-attention --num-query-groups 8 --kv-channels 128
    --seq-length 8192 --max-position-embeddings 8192 --position-embedding-type rope
    --swiglu --normalization RMSNorm --untie-embeddings-and-output-weights --disable-bias-linear
)
TRAINING_ARGS=(--micro-batch-size 1 --global-batch-size 256 --bf16 --lr 3e-4)

DTYPE_ARGS=()
if [[ "$DTYPE" == "fp8" ]]; then
    DTYPE_ARGS+=(
        "--fp8-format hybrid"
        "--fp8-amax-history-len 1024"
        "--fp8-param-gather"
    )
fi

MODEL_PARALLEL_ARGS=(--tensor-model-parallel-size 2 --sequence-parallel)
MODEL_PARALLEL_ARGS+=(
    # --pipeline-model-parallel-size 4   (kept for the 70B run)
    --context-parallel-size 1
)
DDP_ARGS=(--use-distributed-optimizer --overlap-grad-reduce)
TRAINING_ARGS+=("${DDP_ARGS[@]}")
UNUSED_ARGS=(--pipeline-model-parallel-size 4 --recompute-granularity full)

if [[ "$TOKENIZER_ARG" == "MOCK" ]] || [[ -z "$TOKENIZER_ARG" ]]; then
    DATA_ARGS=(
        "--mock-data"
        "--tokenizer-type NullTokenizer"
        "--vocab-size 128256"
        "--split '99,1,0'"
    )
else
    DATA_ARGS=(
        "--tokenizer-type HuggingFaceTokenizer"
        "--tokenizer-model $TOKENIZER_ARG"
        "--vocab-size 32000"
    )
fi

if [ ! -f pretrain_gpt.py ]; then
    echo "pretrain_gpt.py not found: run from Megatron-LM's root"
    usage
    exit 1
fi

torchrun --nproc_per_node $GPUS_PER_NODE --nnodes $NUM_NODES \
    pretrain_gpt.py \
    ${MODEL_ARGS[@]} \
    ${TRAINING_ARGS[@]} \
    ${DTYPE_ARGS[@]} \
    ${MODEL_PARALLEL_ARGS[@]} \
    ${DATA_ARGS[@]} \
    --save "$CHECKPOINT_PATH" --load "$CHECKPOINT_PATH"
