"""The words of the KV-cache page (``pages/decoder_cache.py``)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "decoder_cache.title": {
        "en": "The KV cache: generating step by step",
        "zh": "KV 缓存：一步一步地生成",
    },
    "decoder_cache.intro": {
        "en": "A decoder writes one token at a time, and each new token needs the keys and values "
        "of every token before it, in every layer. Those never change once computed: the key and "
        "value at position t depend only on tokens 1 … t (RoPE turns a key by its own position, "
        "which does not change either). So the model keeps them in a **key/value "
        "cache**. It reads the prompt in one pass (the *prefill*), writing every prompt "
        "position's keys and values; after that, each step puts only the newest token through "
        "the layers and appends one more key and value per key/value head. Here SmolLM2 "
        "continues your sentence by {new} tokens (always the most likely one), one step at a "
        "time. The steps are still sequential: each token waits for the one before it.",
        "zh": "解码器一次只写一个 token，而每个新 token 都需要它之前所有 token 在每一层的键和值。"
        "这些键和值一经算出就不会再变：位置 t 的键和值只取决于第 1 … t 个 token（RoPE 按键自己的"
        "位置旋转它，而这个位置也不会变）。所以模型把它们"
        "存在**键值缓存**（KV cache）里。它先做一次完整的前向计算读完提示（*预填充*，prefill），"
        "写下提示中每个位置的键和值；之后每一步只让最新的那个 token 穿过各层，并为每个键值头追加"
        "一个键和一个值。"
        "本页让 SmolLM2 把你的句子续写 {new} 个 token（每次取最可能的那个），一步一步地来。"
        "这些步骤仍然是顺序的：每个 token 都要等前一个生成出来。",
    },
    "decoder_cache.too_long": {
        "en": "Your text has {n} tokens; this page uses the first {kept} as the prompt.",
        "zh": "你的文本有 {n} 个 token；本页用前 {kept} 个作为提示。",
    },
    "decoder_cache.computing": {
        "en": "Generating, one step at a time…",
        "zh": "正在一步一步地生成……",
    },
    "decoder_cache.step": {
        "en": "Step",
        "zh": "步骤",
    },
    "decoder_cache.step.prefill": {
        "en": "0 · prefill ({n} tokens)",
        "zh": "0 · 预填充（{n} 个 token）",
    },
    "decoder_cache.step.prefill_one": {
        "en": "0 · prefill (1 token)",
        "zh": "0 · 预填充（1 个 token）",
    },
    "decoder_cache.step.decode": {
        "en": "{i} · decode {token}",
        "zh": "{i} · 解码 {token}",
    },
    "decoder_cache.layer": {"en": "Layer", "zh": "层"},
    "decoder_cache.head": {"en": "Query head", "zh": "查询头"},
    "decoder_cache.prefill.body": {
        "en": "**Step 0, the prefill.** The {n} prompt tokens go through all {layers} layers "
        "together, and each layer writes {n} rows of keys and {n} of values per key/value head "
        "into the cache. The last position's logits choose the first new token: {chosen}.",
        "zh": "**第 0 步，预填充。** 提示中的 {n} 个 token 一起穿过全部 {layers} 层，每一层为"
        "每个键值头向缓存写入 {n} 行键和 {n} 行值。最后一个位置的 logits 选出第一个新 token："
        "{chosen}。",
    },
    "decoder_cache.prefill.body_one": {
        "en": "**Step 0, the prefill.** The prompt's one token goes through all {layers} layers, "
        "and each layer writes one row of keys and one of values per key/value head into the "
        "cache. Its logits choose the first new token: {chosen}.",
        "zh": "**第 0 步，预填充。** 提示中唯一的 token 穿过全部 {layers} 层，每一层为每个键值头"
        "向缓存写入一行键和一行值。它的 logits 选出第一个新 token：{chosen}。",
    },
    "decoder_cache.decode.body": {
        "en": "**Step {i}.** Only {token} goes through the layers, at position {position}. Each "
        "layer appends one key row and one value row per key/value head, and its query attends "
        "to all {length} cached positions. It chooses the next token: {chosen}.",
        "zh": "**第 {i} 步。** 只有 {token} 穿过各层，位置是 {position}。每一层为每个键值头追加"
        "一行键和一行值，它的查询关注缓存中全部 {length} 个位置。它选出下一个 token：{chosen}。",
    },
    "decoder_cache.group": {
        "en": "SmolLM2 has h = {h} query heads but only h_kv = {h_kv} key/value heads: query "
        "head {head} reads key/value head {kv}, which it shares with query heads {shared}.",
        "zh": "SmolLM2 有 h = {h} 个查询头，却只有 h_kv = {h_kv} 个键值头：查询头 {head} "
        "读取键值头 {kv}，并与查询头 {shared} 共用它。",
    },
    "decoder_cache.keys": {
        "en": "Cached keys, layer {layer}, key/value head {kv} (after RoPE)",
        "zh": "缓存的键：第 {layer} 层，键值头 {kv}（RoPE 之后）",
    },
    "decoder_cache.values": {
        "en": "Cached values, layer {layer}, key/value head {kv}",
        "zh": "缓存的值：第 {layer} 层，键值头 {kv}",
    },
    "decoder_cache.rows.prefill": {
        "en": "All {n} rows were written at this step.",
        "zh": "全部 {n} 行都是这一步写入的。",
    },
    "decoder_cache.rows.prefill_one": {
        "en": "Its one row was written at this step.",
        "zh": "唯一的一行是这一步写入的。",
    },
    "decoder_cache.rows.decode": {
        "en": "Only the last row, {row}, was written at this step; the {past} rows above it were "
        "read from the cache as they were.",
        "zh": "只有最后一行 {row} 是这一步写入的；它上面的 {past} 行是原样从缓存中读出的。",
    },
    "decoder_cache.axis.position": {"en": "cached position", "zh": "缓存的位置"},
    "decoder_cache.axis.dim": {
        "en": "dimension (of d_head = {d})",
        "zh": "维度（共 d_head = {d} 维）",
    },
    "decoder_cache.axis.number": {"en": "number", "zh": "数值"},
    "decoder_cache.query.title": {
        "en": "The newest query's weights over the cache (layer {layer}, query head {head})",
        "zh": "最新查询对缓存各位置的注意力权重（第 {layer} 层，查询头 {head}）",
    },
    "decoder_cache.query.title_prefill": {
        "en": "The last prompt position's query: its weights over the cache (layer {layer}, "
        "query head {head})",
        "zh": "提示最后一个位置的查询对缓存各位置的注意力权重（第 {layer} 层，查询头 {head}）",
    },
    "decoder_cache.query.one": {
        "en": "With one position cached, its whole weight goes there.",
        "zh": "缓存里只有一个位置时，全部权重都落在它上面。",
    },
    "decoder_cache.axis.key": {"en": "cached position (key)", "zh": "缓存的位置（键）"},
    "decoder_cache.axis.weight": {"en": "attention weight", "zh": "注意力权重"},
    "decoder_cache.weights_caveat": {
        "en": "Attention weights show where a head reads from, not which words are related.",
        "zh": "注意力权重显示的是一个头从哪里读取信息，而不是哪些词之间有语言上的关系。",
    },
    "decoder_cache.cost.title": {
        "en": "What the cache costs and saves",
        "zh": "缓存的代价与节省",
    },
    "decoder_cache.metric.per_token": {"en": "cache per token", "zh": "每个 token 的缓存"},
    "decoder_cache.metric.now": {"en": "cache after this step", "zh": "这一步之后的缓存"},
    "decoder_cache.metric.step": {
        "en": "this step, multiply-adds (millions)",
        "zh": "这一步的乘加（百万次）",
    },
    "decoder_cache.metric.recompute": {
        "en": "without a cache (millions)",
        "zh": "不用缓存时的乘加（百万次）",
    },
    "decoder_cache.claim.bytes": {
        "en": "Counted from the file's tensors, each token adds {per_token} bytes to this float32 "
        "cache: in every layer, K has one number per output of $W^K$ and V one per output of "
        "$W^V$, 4 bytes each. The cache holds {cached} bytes for its {length} positions: exactly "
        "{per_token} per position. Had each query head its own key and value head, as in the 2017 "
        "Transformer, a token would take {full} bytes, {ratio} times as many.",
        "zh": "按文件中张量的大小来数，每个 token 往这个 float32 缓存里添加 {per_token} 字节："
        "在每一层里，$W^K$ 的每个输出对应 K 的一个数，$W^V$ 的每个输出对应 V 的一个数，每个数 4 "
        "字节。"
        "缓存为它的 {length} 个位置存了 {cached} 字节：正好每个位置 {per_token} 字节。"
        "如果像 2017 年的 Transformer 那样每个查询头都有自己的键值头，一个 token 要占 {full} "
        "字节，是现在的 {ratio} 倍。",
    },
    "decoder_cache.claim.bytes_one": {
        "en": "Counted from the file's tensors, each token adds {per_token} bytes to this float32 "
        "cache: in every layer, K has one number per output of $W^K$ and V one per output of "
        "$W^V$, 4 bytes each. The cache holds {cached} bytes for its one position. Had each "
        "query head its own key and value head, as in the 2017 Transformer, a token would take "
        "{full} bytes, {ratio} times as many.",
        "zh": "按文件中张量的大小来数，每个 token 往这个 float32 缓存里添加 {per_token} 字节："
        "在每一层里，$W^K$ 的每个输出对应 K 的一个数，$W^V$ 的每个输出对应 V 的一个数，每个数 4 "
        "字节。"
        "缓存为它唯一的位置存了 {cached} 字节。"
        "如果像 2017 年的 Transformer 那样每个查询头都有自己的键值头，一个 token 要占 {full} "
        "字节，是现在的 {ratio} 倍。",
    },
    "decoder_cache.claim.work": {
        "en": "Estimated from the layer sizes (the matrix products and attention; the norms, "
        "RoPE and SiLU add a few per cent), this step costs about {step} million multiply-adds. "
        "Running all {length} positions through the model again, as a decoder without a cache "
        "would for this token, costs about {recompute} million: {ratio} times as many. Both "
        "pay once for the output layer, which scores only the last position.",
        "zh": "按各层的大小估算（矩阵乘法和注意力；归一化、RoPE 和 SiLU 另外只多几个百分点），"
        "这一步大约要 {step} 百万次乘加。如果像没有缓存的解码器那样，为这个 token 把全部 "
        "{length} 个位置重新算一遍，大约要 {recompute} 百万次：是它的 {ratio} 倍。两者都只为最后"
        "一个位置算一次输出层。",
    },
    "decoder_cache.check.title": {
        "en": "Does the cache change the answer?",
        "zh": "缓存会改变结果吗？",
    },
    "decoder_cache.claim.same": {
        "en": "After the last step, the logits computed through the cache and those of one "
        "forward over every position with no cache differ by at most {gap}, where the largest "
        "logit is {top}: float32 sums taken in another order. Both put the same token on top. "
        "The cache saves work; it does not change the model.",
        "zh": "最后一步之后，通过缓存算出的 logits 与不用缓存、对所有位置完整做一次前向计算得到"
        "的 logits 最多相差 {gap}，而最大的 logit 是 {top}：这是 float32 按不同顺序求和造成的。"
        "两者排第一的 token 也相同。缓存节省了计算，并没有改变模型。",
    },
    "decoder_cache.check.failed": {
        "en": "The logits through the cache and without it differ by {gap}, or put different "
        "tokens on top ({cached} and {recomputed}). They should not: please report this.",
        "zh": "通过缓存和不用缓存算出的 logits 相差 {gap}，或者排第一的 token 不同（{cached} 和 "
        "{recomputed}）。它们本不应如此：请报告这个问题。",
    },
    "decoder_cache.solved": {
        "en": "Generating a token costs one row of every product instead of a pass over the "
        "whole text: the cache keeps what earlier steps computed.",
        "zh": "生成一个 token 只需要每个矩阵乘法中的一行，而不是把整段文字再算一遍：缓存保存了"
        "之前各步算出的结果。",
    },
    "decoder_cache.hurts": {
        "en": "The cache grows with every token, in every layer, and the tokens still come one "
        "after another: on real hardware a long generation is limited by reading the weights "
        "and the cache once per token.",
        "zh": "缓存随每个 token 增长，每一层都是如此，而 token 仍然只能一个接一个地生成：在真实"
        "的硬件上，长文本的生成受限于每个 token 都要把权重和缓存读一遍。",
    },
}
