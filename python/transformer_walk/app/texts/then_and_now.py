"""Words of the 2017 vs today page (prefix ``tan.``)."""

MESSAGES: dict[str, dict[str, str]] = {
    "then_and_now.title": {
        "en": "2017 vs today: what changed in the block",
        "zh": "2017 与今天：块里改了什么",
    },
    "then_and_now.intro": {
        "en": "The block of *Attention Is All You Need* still sits inside today's language "
        "models, with five parts replaced. On the left, the toy model of this road, built as in "
        "2017; on the right, SmolLM2-135M, a small decoder of today's design. Every cell of the "
        "table is read from the two models' configurations, and every number below from the "
        "real model's trace of your sentence.",
        "zh": "《Attention Is All You Need》里的那个块，今天的语言模型里依然都有，只是换掉了五个"
        "部件。左边是本路线的玩具模型，按 2017 年的方式搭建；右边是 SmolLM2-135M，一个按今天的"
        "设计做成的小型解码器。表中每一格都读自两个模型的配置，下面的每个数字都来自真实模型"
        "处理你这句话时记录下的中间结果。",
    },
    "then_and_now.table.title": {"en": "The two designs", "zh": "两种设计"},
    "then_and_now.col.part": {"en": "Part", "zh": "部件"},
    "then_and_now.col.toy": {"en": "2017 (toy model)", "zh": "2017（玩具模型）"},
    "then_and_now.col.smol": {"en": "Today (SmolLM2)", "zh": "今天（SmolLM2）"},
    "then_and_now.row.norm": {"en": "Norm and its place", "zh": "归一化及其位置"},
    "then_and_now.row.positions": {"en": "Positions", "zh": "位置"},
    "then_and_now.row.ffn": {"en": "Feed-forward", "zh": "前馈网络"},
    "then_and_now.row.heads": {"en": "Heads", "zh": "注意力头"},
    "then_and_now.row.mask": {"en": "Mask / direction", "zh": "掩码 / 方向"},
    "then_and_now.row.sizes": {"en": "Sizes", "zh": "规模"},
    "then_and_now.cell.layernorm_post": {
        "en": "LayerNorm after each residual add (Post-LN)",
        "zh": "LayerNorm，放在每次残差相加之后（Post-LN）",
    },
    "then_and_now.cell.layernorm_pre": {
        "en": "LayerNorm before each sublayer (Pre-LN)",
        "zh": "LayerNorm，放在每个子层之前（Pre-LN）",
    },
    "then_and_now.cell.rmsnorm_pre": {
        "en": "RMSNorm before each sublayer (ε = {eps})",
        "zh": "RMSNorm，放在每个子层之前（ε = {eps}）",
    },
    "then_and_now.cell.sinusoidal": {
        "en": "sinusoidal vectors added to the embeddings",
        "zh": "正弦位置向量，加到词向量上",
    },
    "then_and_now.cell.no_positions": {"en": "none", "zh": "无"},
    "then_and_now.cell.rope": {
        "en": "RoPE: q and k turned by their position (base {base})",
        "zh": "RoPE：按位置旋转 q 和 k（底数 {base}）",
    },
    "then_and_now.cell.relu": {"en": "ReLU, d_ff = {d_ff}", "zh": "ReLU 激活，d_ff = {d_ff}"},
    "then_and_now.cell.swiglu": {
        "en": "SwiGLU: SiLU(x W_gate) ⊙ x W_up, d_ff = {d_ff}",
        "zh": "SwiGLU 门控：SiLU(x W_gate) ⊙ x W_up，d_ff = {d_ff}",
    },
    "then_and_now.cell.full_heads": {
        "en": "h = {h} heads, each with its own K and V (d_k = {d_k})",
        "zh": "h = {h} 个头，各有自己的 K 和 V（d_k = {d_k}）",
    },
    "then_and_now.cell.gqa": {
        "en": "h = {h} query heads share {h_kv} key/value heads (d_k = {d_k})",
        "zh": "h = {h} 个查询头共享 {h_kv} 个键/值头（d_k = {d_k}）",
    },
    "then_and_now.cell.bidirectional": {
        "en": "none: every token sees every token (encoder)",
        "zh": "无：每个 token 都能看到所有 token（编码器）",
    },
    "then_and_now.cell.causal": {
        "en": "causal: a token sees only itself and earlier tokens (decoder)",
        "zh": "因果掩码：token 只能看到自己和之前的 token（解码器）",
    },
    "then_and_now.cell.sizes": {
        "en": "L = {L} {L:layer|layers}, d_model = {d_model}",
        "zh": "L = {L} 层，d_model = {d_model}",
    },
    "then_and_now.too_long": {
        "en": "The sentence has {n} tokens for SmolLM2; this page traces the first {kept} (a "
        "trace keeps every intermediate of all 30 layers).",
        "zh": "这句话在 SmolLM2 里有 {n} 个 token；本页只记录前 {kept} 个（一次记录要保存 30 层的"
        "全部中间结果）。",
    },
    "then_and_now.computing": {
        "en": "Running SmolLM2 on your sentence…",
        "zh": "正在用 SmolLM2 处理你的句子…",
    },
    "then_and_now.layer": {"en": "Layer", "zh": "层"},
    "then_and_now.token": {"en": "Token", "zh": "token"},
    # --- RoPE ---
    "then_and_now.rope.title": {
        "en": "RoPE: turn q and k, keep the offset",
        "zh": "RoPE：旋转 q 和 k，只留下相对距离",
    },
    "then_and_now.rope.body": {
        "en": "RoPE adds nothing to the embedding. It turns each pair of columns of $q$ and $k$ "
        "by an angle proportional to the token's position, each pair at its own speed. A dot "
        "product of two turned vectors depends on the difference of their angles only, so "
        "$q$ at $p + \\Delta$ against $k$ at $p$ gives one score whatever $p$ is. Below, the "
        "real query of **{q_token}** and the real key of **{k_token}** (layer {layer}, query "
        "head {head}, before RoPE) are placed at several positions $p$ with one offset $\\Delta$.",
        "zh": "RoPE 不往词向量上加任何东西。它把 $q$ 和 $k$ 的每一对列按与位置成正比的角度旋转，"
        "每一对各有自己的转速。两个旋转过的向量的点积只取决于它们角度之差，所以位于 "
        "$p + \\Delta$ 的 $q$ 和位于 $p$ 的 $k$ 无论 $p$ 取多少，得分都一样。下面把 **{q_token}** "
        "的真实查询向量和 **{k_token}** 的真实键向量（第 {layer} 层、第 {head} 个查询头、旋转之前）"
        "放到若干个位置 $p$ 上，偏移 $\\Delta$ 固定。",
    },
    "then_and_now.rope.delta": {"en": "Offset Δ", "zh": "偏移 Δ"},
    "then_and_now.rope.head": {"en": "Query head", "zh": "查询头"},
    "then_and_now.rope.axis_p": {"en": "key position p", "zh": "键的位置 p"},
    "then_and_now.rope.axis_dot": {"en": "q · k", "zh": "点积 q · k"},
    "then_and_now.rope.lane": {"en": "positions", "zh": "位置方式"},
    "then_and_now.rope.lane_rope": {"en": "RoPE (turned)", "zh": "RoPE（旋转）"},
    "then_and_now.rope.lane_added": {"en": "sinusoidal (added)", "zh": "正弦（相加）"},
    "then_and_now.rope.spread_rope": {"en": "RoPE: spread over p", "zh": "RoPE：随 p 的波动"},
    "then_and_now.rope.spread_added": {"en": "added: spread over p", "zh": "相加：随 p 的波动"},
    "then_and_now.rope.same": {
        "en": "Turned, the score stays {value} at every p (spread {spread}): only the offset "
        "Δ = {delta} counts. With the sinusoidal vectors added instead it ranges over "
        "{added_spread}: where the pair sits changes what they say to each other.",
        "zh": "旋转之后，每个 p 上的得分都是 {value}（波动 {spread}）：起作用的只有偏移 "
        "Δ = {delta}。如果改为加上正弦位置向量，得分的波动达到 {added_spread}：这对 token 所在的"
        "位置会改变它们之间的得分。",
    },
    "then_and_now.rope.rope_varies": {
        "en": "The turned scores vary by {spread} over p: more than rounding, so RoPE here does "
        "not depend on the offset only.",
        "zh": "旋转后的得分随 p 波动 {spread}，超出了舍入误差，所以这里的 RoPE 并不只取决于偏移。",
    },
    "then_and_now.rope.added_same": {
        "en": "Both ways give the same score at every p here (spread {spread} and {added_spread}).",
        "zh": "这里两种方式在每个 p 上都给出相同的得分（波动 {spread} 和 {added_spread}）。",
    },
    "then_and_now.rope.delta_range": {
        "en": "Δ runs from 0 to {top}: the key is a real token of your sentence, Δ places before "
        "the query at position {i} (counted from 0).",
        "zh": "Δ 可取 0 到 {top}：键是你句子里真实存在的 token，位于查询（位置 {i}，从 0 数起）"
        "之前 Δ 个位置。",
    },
    "then_and_now.rope.first_token": {
        "en": "The first token has no key before it, so Δ is 0: its own query against its own "
        "key. Pick a later token for a larger offset.",
        "zh": "第一个 token 之前没有别的键，所以 Δ 只能是 0：它自己的查询对它自己的键。"
        "选一个靠后的 token，才能取更大的偏移。",
    },
    "then_and_now.rope.trace": {
        "en": "Checked against the trace: the model's own turned q and k, the query at position "
        "{i} and the key at position {j} (counted from 0, so Δ = {delta}), give {traced}; turned "
        "here at (p + Δ, p) = ({i}, {j}) they give {here}, and the chart's scores at every p run "
        "from {low} to {high}: one score, to rounding.",
        "zh": "与模型的记录核对：模型自己旋转后的 q 和 k（查询在位置 {i}、键在位置 {j}，从 0 数起，"
        "所以 Δ = {delta}）的点积为 {traced}；这里在 (p + Δ, p) = ({i}, {j}) 旋转得到 {here}；"
        "图中各个 p 的得分在 {low} 到 {high} 之间：在舍入误差内是同一个得分。",
    },
    "then_and_now.rope.trace_apart": {
        "en": "Checked against the trace: the model's own turned q and k, the query at position "
        "{i} and the key at position {j} (counted from 0, so Δ = {delta}), give {traced}; turned "
        "here at (p + Δ, p) = ({i}, {j}) they give {here}, and the chart's scores run from {low} "
        "to {high}: these differ by more than rounding.",
        "zh": "与模型的记录核对：模型自己旋转后的 q 和 k（查询在位置 {i}、键在位置 {j}，从 0 数起，"
        "所以 Δ = {delta}）的点积为 {traced}；这里在 (p + Δ, p) = ({i}, {j}) 旋转得到 {here}；"
        "图中的得分在 {low} 到 {high} 之间：它们的差别超出了舍入误差。",
    },
    # --- GQA ---
    "then_and_now.gqa.title": {"en": "Grouped-query attention", "zh": "分组查询注意力"},
    "then_and_now.gqa.body": {
        "en": "In 2017 every head had its own $W^K$ and $W^V$. SmolLM2 keeps $h = {h}$ query "
        "heads but only {h_kv} key/value heads: each key/value head is read by {group} query "
        "heads. The map shows which one each query head reads.",
        "zh": "2017 年每个头都有自己的 $W^K$ 和 $W^V$。SmolLM2 保留了 $h = {h}$ 个查询头，"
        "但只有 {h_kv} 个键/值头：每个键/值头由 {group} 个查询头共同读取。下图显示每个查询头读的"
        "是哪一个。",
    },
    "then_and_now.gqa.query": {"en": "query head", "zh": "查询头"},
    "then_and_now.gqa.kv": {"en": "key/value head", "zh": "键/值头"},
    "then_and_now.gqa.reads": {"en": "reads", "zh": "读取"},
    "then_and_now.gqa.bytes_gqa": {
        "en": "Cache per token, {h_kv} KV heads",
        "zh": "每个 token 的缓存（{h_kv} 个 KV 头）",
    },
    "then_and_now.gqa.bytes_full": {
        "en": "Cache per token, {h} KV heads",
        "zh": "每个 token 的缓存（{h} 个 KV 头）",
    },
    "then_and_now.gqa.no_saving": {
        "en": "Generating, the model keeps every earlier token's keys and values: 2 · L · h_kv · "
        "d_k = {values} numbers of 4 bytes a token. Here each of the {h} query heads has its own "
        "key/value head, so grouping saves nothing.",
        "zh": "生成时，模型要保存之前每个 token 的键和值：每个 token 2 · L · h_kv · d_k = {values} "
        "个 4 字节的数。这里 {h} 个查询头各有自己的键/值头，分组没有省下任何空间。",
    },
    "then_and_now.gqa.saving": {
        "en": "Generating, the model keeps every earlier token's keys and values: 2 · L · h_kv · "
        "d_k = {values} numbers of 4 bytes a token. With {h} key/value heads it would keep "
        "{ratio} times as much: at the full context of {context} tokens, {full} instead of "
        "{gqa}.",
        "zh": "生成时，模型要保存之前每个 token 的键和值：每个 token 2 · L · h_kv · d_k = {values} "
        "个 4 字节的数。如果有 {h} 个键/值头，就要保存 {ratio} 倍：在 {context} 个 token 的完整"
        "上下文下，是 {full} 而不是 {gqa}。",
    },
    # --- norms ---
    "then_and_now.norm.title": {
        "en": "RMSNorm vs LayerNorm on one vector",
        "zh": "同一个向量上的 RMSNorm 与 LayerNorm",
    },
    "then_and_now.norm.body": {
        "en": "LayerNorm subtracts the vector's mean and divides by its standard deviation; "
        "RMSNorm only divides by the root of the mean square, one reduction fewer. Here both "
        "are applied, without their learned scale, to the residual stream entering layer "
        "{layer} at **{token}**.",
        "zh": "LayerNorm 先减去向量的均值，再除以标准差；RMSNorm 只除以均方根，少做一次归约。"
        "这里把两者（都不带学到的缩放）用在第 {layer} 层入口处 **{token}** 的残差流向量上。",
    },
    "then_and_now.norm.mean": {"en": "mean of x", "zh": "x 的均值"},
    "then_and_now.norm.rms": {"en": "RMS of x", "zh": "x 的均方根"},
    "then_and_now.norm.std": {"en": "std of x", "zh": "x 的标准差"},
    "then_and_now.norm.out_mean_rms": {"en": "mean after RMSNorm", "zh": "RMSNorm 后的均值"},
    "then_and_now.norm.out_mean_ln": {"en": "mean after LayerNorm", "zh": "LayerNorm 后的均值"},
    "then_and_now.norm.says": {
        "en": "The mean, {mean}, is {share} of the vector's size: LayerNorm removes it (mean "
        "after: {ln_mean}), RMSNorm keeps it (mean after: {rms_mean}).",
        "zh": "均值 {mean} 占向量大小的 {share}：LayerNorm 把它去掉（之后均值为 {ln_mean}），"
        "RMSNorm 则保留它（之后均值为 {rms_mean}）。",
    },
    "then_and_now.norm.says_centred": {
        "en": "The mean, {mean}, is {share} of the vector's size: too small to show at four "
        "decimals, so here both norms leave a mean near 0 (LayerNorm {ln_mean}, RMSNorm "
        "{rms_mean}); the difference between them shows on vectors with a larger mean.",
        "zh": "均值 {mean} 只占向量大小的 {share}：在四位小数下看不出来，所以这里两种归一化"
        "之后的均值都接近 0（LayerNorm 为 {ln_mean}，RMSNorm 为 {rms_mean}）；"
        "两者的差别要在均值更大的向量上才看得出来。",
    },
    "then_and_now.norm.check_apart": {
        "en": "Times the layer's learned scale γ, the RMSNorm here differs from the model's "
        "recorded attention input by up to {error}: more than float32 rounding.",
        "zh": "乘以该层学到的缩放 γ 后，这里的 RMSNorm 与模型记录的注意力输入最多相差 {error}："
        "超出了 float32 的舍入误差。",
    },
    "then_and_now.norm.check": {
        "en": "Times the layer's learned scale γ, the RMSNorm here matches the model's recorded "
        "attention input to {error}.",
        "zh": "乘以该层学到的缩放 γ 后，这里的 RMSNorm 与模型记录的注意力输入相差不超过 {error}。",
    },
    "then_and_now.norm.first": {"en": "first {k} of {d} columns", "zh": "前 {k} 列（共 {d} 列）"},
    "then_and_now.norm.x": {"en": "x", "zh": "向量 x"},
    # --- SwiGLU ---
    "then_and_now.ffn.title": {"en": "SwiGLU's gate vs ReLU", "zh": "SwiGLU 的门与 ReLU"},
    "then_and_now.ffn.body": {
        "en": "The 2017 FFN cuts every negative value to exactly 0 (ReLU). SwiGLU multiplies "
        "$x W_{{up}}$ by a soft gate SiLU($x W_{{gate}}$) = $z\\,\\sigma(z)$, which lets small "
        "negative values through. The histogram is the gate's {d_ff} values for **{token}** in "
        "layer {layer}.",
        "zh": "2017 年的前馈网络把每个负值都截成正好 0（ReLU）。SwiGLU 则用一个软门 "
        "SiLU($x W_{{gate}}$) = $z\\,\\sigma(z)$ 去乘 $x W_{{up}}$，允许小的负值通过。直方图是"
        "第 {layer} 层 **{token}** 的 {d_ff} 个门值。",
    },
    "then_and_now.ffn.axis_value": {"en": "SiLU(x W_gate)", "zh": "门值 SiLU(x W_gate)"},
    "then_and_now.ffn.axis_count": {"en": "values", "zh": "个数"},
    "then_and_now.ffn.gate_near": {"en": "gate: |value| < {near}", "zh": "门：|值| < {near}"},
    "then_and_now.ffn.gate_exact": {"en": "gate: exactly 0", "zh": "门：正好为 0"},
    "then_and_now.ffn.relu_exact": {"en": "toy ReLU: exactly 0", "zh": "玩具 ReLU：正好为 0"},
    "then_and_now.ffn.says": {
        "en": "{near} of the gate's values are near zero and {negative} are negative (down to "
        "{minimum}), but {exact} are exactly 0. The toy model's ReLU, on **{toy_token}**, "
        "sets {relu} of its {toy_d_ff} values to exactly 0.",
        "zh": "门值中有 {near} 接近零、{negative} 为负（最小 {minimum}），但正好为 0 的只有 "
        "{exact}。玩具模型的 ReLU 在 **{toy_token}** 上把 {toy_d_ff} 个值中的 {relu} 置为正好 0。",
    },
    "then_and_now.ffn.counts": {
        "en": "{near} of the gate's values are near zero, {negative} are negative (the smallest "
        "is {minimum}) and {exact} are exactly 0. The toy model's ReLU, on **{toy_token}**, "
        "sets {relu} of its {toy_d_ff} values to exactly 0.",
        "zh": "门值中有 {near} 接近零、{negative} 为负（最小值 {minimum}），正好为 0 的有 "
        "{exact}。玩具模型的 ReLU 在 **{toy_token}** 上把 {toy_d_ff} 个值中的 {relu} 置为正好 0。",
    },
    "then_and_now.solved": {
        "en": "the same attention, with positions that count offsets, a cheaper cache and norm, "
        "and a smoother FFN, trained to write text one token at a time.",
        "zh": "注意力还是同样的注意力，只是位置只看相对距离，缓存和归一化更省，前馈更平滑，"
        "并被训练成一次写出一个 token。",
    },
    "then_and_now.hurts": {
        "en": "a decoder still writes one token after another, and attention still grows with "
        "n² — Next token times the first, Cost counts the second.",
        "zh": "解码器仍然只能一个接一个地写 token，注意力的开销仍随 n² 增长——"
        "“下一个 token”页测出了前者，“计算代价”页算出了后者。",
    },
    "then_and_now.sources": {
        "en": "Sources: “From Words to Attention: The Road to the Transformer” and "
        "“从词向量到 Transformer：RNN、CNN、Self-Attention 与 QKV 的系统理解”.",
        "zh": "参考：《From Words to Attention: The Road to the Transformer》与"
        "《从词向量到 Transformer：RNN、CNN、Self-Attention 与 QKV 的系统理解》。",
    },
}
