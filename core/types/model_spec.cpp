#include "types/model_spec.h"

namespace parascope {

bool ModelSpec::isMoeLayer(int layer) const
{
    if (!moe || moe->experts <= 0 || layer < moe->first_dense_layers)
        return false;
    const int freq = moe->layer_freq > 0 ? moe->layer_freq : 1;
    return (layer - moe->first_dense_layers) % freq == 0;
}

int ModelSpec::moeLayerCount() const
{
    int n = 0;
    for (int l = 0; l < layers; ++l)
        n += isMoeLayer(l) ? 1 : 0;
    return n;
}

bool ModelSpec::isSlidingLayer(int layer) const
{
    if (!sliding_window || sliding_window->size <= 0)
        return false;
    const int every = sliding_window->global_every;
    return every <= 0 || (layer + 1) % every != 0;
}

int ModelSpec::slidingLayerCount() const
{
    int n = 0;
    for (int l = 0; l < layers; ++l)
        n += isSlidingLayer(l) ? 1 : 0;
    return n;
}

} // namespace parascope
