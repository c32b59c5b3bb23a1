"""Words of the Scaling page (prefix ``scale.``); “From word vectors to Transformer” §18–19."""

MESSAGES: dict[str, dict[str, str]] = {
    "scaling.title": {"en": "Scaling: why divide by √d_k", "zh": "缩放：为什么要除以 √d_k"},
    "scaling.intro": {
        "en": "The Transformer's attention is *scaled* dot-product attention: the scores Q Kᵀ are "
        "divided by √d_k before the softmax, where d_k is the length of one head's query and "
        "key vectors. Dividing by a constant looks harmless, yet without it attention behaves "
        "badly as d_k grows. Below: what the division does to your sentence, why the number "
        "is √d_k, and what goes wrong without it.",
        "zh": "Transformer 的注意力是*缩放*点积注意力：在 softmax 之前，分数 Q Kᵀ 要先除以 √d_k，"
        "其中 d_k 是单个头里查询向量和键向量的长度。除以一个常数看似无关紧要，"
        "但如果不除，d_k 一变大注意力就会出问题。下面依次看：这一除对你的句子有什么影响，"
        "为什么偏偏是 √d_k，以及不除会出什么毛病。",
    },
    # --- the sentence ---------------------------------------------------------------------------
    "scaling.sent.title": {
        "en": "Your sentence, with and without ÷√d_k",
        "zh": "你的句子：除以 √d_k 与不除",
    },
    "scaling.sent.body": {
        "en": "The toy model runs twice on the sidebar's sentence with the same weights; the only "
        "difference is its `scale` switch. Make d_k larger (larger d_model, fewer heads) and "
        "watch the unscaled rows collapse onto a single key.",
        "zh": "玩具模型用同一组权重在侧边栏的句子上运行两次，唯一的区别是 `scale` 开关。"
        "把 d_k 调大（更大的 d_model、更少的头），看看未缩放的那一边每一行怎样塌缩到单个键上。",
    },
    "scaling.d_help": {
        "en": "Width of the toy model's token vectors; d_k = d_model / h.",
        "zh": "玩具模型中 token 向量的宽度；d_k = d_model / h。",
    },
    "scaling.h": {"en": "heads h", "zh": "头数 h"},
    "scaling.head": {"en": "head shown", "zh": "显示的头"},
    "scaling.head_label": {"en": "head {number}", "zh": "第 {number} 个头"},
    "scaling.sent.computing": {"en": "Running the toy model twice…", "zh": "正在运行两次玩具模型…"},
    "scaling.sent.shapes": {
        "en": "Here d_k = {d_k}, so the scaled scores are the raw ones divided by √d_k = {root}.",
        "zh": "这里 d_k = {d_k}，所以缩放后的分数等于原始分数除以 √d_k = {root}。",
    },
    "scaling.sent.on": {
        "en": "with ÷√d_k (the Transformer)",
        "zh": "除以 √d_k（Transformer 的做法）",
    },
    "scaling.sent.off": {"en": "without scaling", "zh": "不缩放"},
    "scaling.metric.max": {"en": "mean largest weight per row", "zh": "每行最大权重的平均值"},
    "scaling.metric.entropy": {"en": "mean entropy per row (nats)", "zh": "每行熵的平均值（nat）"},
    "scaling.metric.entropy_help": {
        "en": "0 means every row puts all its weight on one key; {top} (= log n) means every "
        "row spreads it evenly.",
        "zh": "0 表示每一行把全部权重压在一个键上；{top}（= log n）表示每一行把权重平均分开。",
    },
    "scaling.query": {"en": "query", "zh": "查询"},
    "scaling.key": {"en": "key", "zh": "键"},
    "scaling.first_rows": {
        "en": "The heatmaps show the rows of the first {shown} of the {n} queries, over the "
        "first {keys} keys; the metrics use every row and every key.",
        "zh": "热力图显示 {n} 个查询中前 {shown} 个的行，以及前 {keys} 个键；"
        "指标用到了每一行和每一个键。",
    },
    # --- variance -------------------------------------------------------------------------------
    "scaling.var.title": {
        "en": "The variance of q · k grows like d_k",
        "zh": "q · k 的方差随 d_k 增长",
    },
    "scaling.var.body": {
        "en": "Suppose the entries of q and k are independent with mean 0 and variance 1, "
        "roughly what well-initialised layers produce. Each product q_r k_r then has variance "
        "1, and a sum of d_k independent terms has variance d_k. So the typical size of a raw "
        "score is √d_k: about 8 for d_k = 64. Dividing by √d_k brings every d_k back to the "
        "same unit scale. The chart measures this instead of trusting the algebra: random "
        "pairs for each d_k from 1 to 1024.",
        "zh": "假设 q 和 k 的各个分量相互独立、均值为 0、方差为 1——初始化良好的网络层大致如此。"
        "那么每个乘积 q_r k_r 的方差是 1，d_k 个独立项相加，方差就是 d_k。所以原始分数的典型大小"
        "是 √d_k：d_k = 64 时大约是 8。除以 √d_k 之后，无论 d_k 多大，分数都回到同一个量级。"
        "下图不是照搬推导，而是实测：对 1 到 1024 的每个 d_k 抽取随机向量对来计算。",
    },
    "scaling.samples": {"en": "random pairs per d_k", "zh": "每个 d_k 的随机向量对数"},
    "scaling.samples_help": {
        "en": "More pairs give a steadier estimate; the variance of an estimate from m samples "
        "itself wobbles by roughly √(2/m) in relative terms.",
        "zh": "向量对越多，估计越稳定；用 m 个样本估计方差，相对误差大约在 √(2/m) 左右。",
    },
    "scaling.var.series.raw": {"en": "measured Var(q·k)", "zh": "实测 Var(q·k)"},
    "scaling.var.series.scaled": {"en": "measured Var(q·k/√d_k)", "zh": "实测 Var(q·k/√d_k)"},
    "scaling.var.series.theory": {"en": "d_k (theory)", "zh": "d_k（理论值）"},
    "scaling.var.y": {"en": "variance (log scale)", "zh": "方差（对数轴）"},
    "scaling.var.note": {
        "en": "{samples} random pairs per d_k from NumPy's seeded generator (sampling is not a "
        "backend function). At d_k = {d_k} the measured variance is {var}: raw scores spread "
        "about ±{std}, where exp({std}) is already enormous next to exp(0) = 1.",
        "zh": "每个 d_k 用 NumPy 的固定种子生成器抽取 {samples} 对随机向量（抽样不属于后端函数）。"
        "在 d_k = {d_k} 时实测方差为 {var}：原始分数大约在 ±{std} 范围内波动，"
        "而 exp({std}) 和 exp(0) = 1 相比已经大得惊人。",
    },
    # --- saturation -----------------------------------------------------------------------------
    "scaling.sat.title": {
        "en": "Large scores saturate the softmax",
        "zh": "分数过大会让 softmax 饱和",
    },
    "scaling.sat.body": {
        "en": "Give one random query {n} random keys (as many as your sentence has tokens) and "
        "softmax the scores, with and without ÷√d_k, many times for each d_k. Without scaling, "
        "the gaps between scores grow like √d_k, and eˣ turns a gap of a few units into a "
        "factor of hundreds: the largest weight heads for 1 and the entropy for 0. With "
        "scaling the distribution keeps the same shape at every d_k.",
        "zh": "给一个随机查询配上 {n} 个随机键（与你的句子 token 数相同），对分数做 softmax，"
        "分别在除以 √d_k 和不除的情况下、对每个 d_k 重复多次。不缩放时，分数之间的差距随 √d_k "
        "增长，而 eˣ 会把几个单位的差距放大成几百倍：最大权重趋向 1，熵趋向 0。"
        "缩放之后，无论 d_k 多大，分布的形状都保持不变。",
    },
    "scaling.sat.capped": {
        "en": "Your sentence has {n} tokens; the experiment uses {cap} keys per row to stay quick.",
        "zh": "你的句子有 {n} 个 token；为了保持速度，实验每行只用 {cap} 个键。",
    },
    "scaling.sat.two_keys": {
        "en": "A softmax over a single key is always 1, so the experiment uses 2 keys.",
        "zh": "只有一个键时 softmax 恒为 1，所以实验使用 2 个键。",
    },
    "scaling.trials": {"en": "random queries per d_k", "zh": "每个 d_k 的随机查询数"},
    "scaling.trials_help": {
        "en": "Each point is the average over this many random queries (each with its own keys).",
        "zh": "每个点是这么多个随机查询（各自配有自己的键）的平均值。",
    },
    "scaling.sat.computing": {
        "en": "Running the softmax experiment…",
        "zh": "正在运行 softmax 实验…",
    },
    "scaling.sat.computed": {
        "en": "Softmax computed by the **{backend}** backend: {rows} rows of {n} scores in one "
        "call.",
        "zh": "softmax 由 **{backend}** 后端计算：一次调用处理 {rows} 行、每行 {n} 个分数。",
    },
    "scaling.sat.off": {"en": "without ÷√d_k", "zh": "不除以 √d_k"},
    "scaling.sat.on": {"en": "with ÷√d_k", "zh": "除以 √d_k"},
    "scaling.sat.uniform": {"en": "uniform weights", "zh": "均匀分布"},
    "scaling.sat.max_title": {
        "en": "**Largest weight** in a row",
        "zh": "每行的**最大权重**",
    },
    "scaling.sat.max_y": {"en": "mean largest weight", "zh": "平均最大权重"},
    "scaling.sat.entropy_title": {
        "en": "**Entropy** of a row",
        "zh": "每行的**熵**",
    },
    "scaling.sat.entropy_y": {"en": "mean entropy (nats)", "zh": "平均熵（nat）"},
    "scaling.sat.jac_title": {
        "en": "**Gradient size** ‖∂α/∂s‖",
        "zh": "**梯度大小** ‖∂α/∂s‖",
    },
    "scaling.sat.jac_y": {
        "en": "mean ‖diag(α) − ααᵀ‖ (Frobenius)",
        "zh": "‖diag(α) − ααᵀ‖（Frobenius 范数）的平均值",
    },
    "scaling.sat.metric.max_off": {
        "en": "largest weight, d_k = {d_k}, unscaled",
        "zh": "最大权重，d_k = {d_k}，不缩放",
    },
    "scaling.sat.metric.max_on": {
        "en": "largest weight, d_k = {d_k}, scaled",
        "zh": "最大权重，d_k = {d_k}，缩放",
    },
    "scaling.sat.metric.jac_off": {
        "en": "gradient size, d_k = {d_k}, unscaled",
        "zh": "梯度大小，d_k = {d_k}，不缩放",
    },
    "scaling.sat.metric.jac_on": {
        "en": "gradient size, d_k = {d_k}, scaled",
        "zh": "梯度大小，d_k = {d_k}，缩放",
    },
    "scaling.sat.reading.smaller": {
        "en": "At d_k = {d_k}, with {n} keys, the unscaled rows are peaked (largest weight "
        "{max_weight} on average) and their gradient is {unscaled}, against {scaled} with "
        "scaling; at d_k = {last_d_k} it is down to {last}.",
        "zh": "在 d_k = {d_k}、{n} 个键时，不缩放的行已经很尖（最大权重平均为 {max_weight}），"
        "梯度只有 {unscaled}，而缩放后为 {scaled}；到 d_k = {last_d_k} 时只剩 {last}。",
    },
    "scaling.sat.reading.close": {
        "en": "At d_k = {d_k}, with {n} keys, the two are still close ({unscaled} unscaled, "
        "{scaled} scaled): the unscaled rows are peaked (largest weight {max_weight} on "
        "average) but not yet one-hot. Saturation comes later: at d_k = {last_d_k} the "
        "unscaled gradient is down to {last}.",
        "zh": "在 d_k = {d_k}、{n} 个键时，两者仍然接近（不缩放 {unscaled}，缩放 {scaled}）："
        "不缩放的行已经很尖（最大权重平均为 {max_weight}），但还不是 One-Hot（只有一个 1）。"
        "饱和来得更晚："
        "到 d_k = {last_d_k} 时，不缩放的梯度只剩 {last}。",
    },
    "scaling.sat.reading.larger": {
        "en": "At d_k = {d_k}, with {n} keys, the unscaled gradient is even the larger one "
        "({unscaled} against {scaled}): its rows (largest weight {max_weight} on average) sit "
        "between flat and one-hot, where this norm is largest. Saturation comes later: at "
        "d_k = {last_d_k} it is down to {last}.",
        "zh": "在 d_k = {d_k}、{n} 个键时，不缩放的梯度反而更大（{unscaled}，缩放为 {scaled}）："
        "它的行（最大权重平均为 {max_weight}）处在平坦与 one-hot 之间，这个范数在那里最大。"
        "饱和来得更晚：到 d_k = {last_d_k} 时只剩 {last}。",
    },
    "scaling.sat.reading.rise": {
        "en": "The unscaled curve first rises, to {peak} at d_k = {peak_d_k}, because this norm "
        "is small at both ends: {uniform} for a row spread evenly over the {n} keys, 0 for a "
        "one-hot row.",
        "zh": "不缩放的曲线先升高，在 d_k = {peak_d_k} 时达到 {peak}，因为这个范数在两端都很小："
        "一行平均分给 {n} 个键时为 {uniform}，权重全集中在一个键上的 One-Hot 行则为 0。",
    },
    "scaling.sat.reading.scaled": {
        "en": "With ÷√d_k the curve stays between {low} and {high} at every d_k: the softmax "
        "starts out as soft whatever d_k is.",
        "zh": "除以 √d_k 后，曲线在每个 d_k 都保持在 {low} 到 {high} 之间：无论 d_k 取多少，"
        "softmax 一开始都同样柔和。",
    },
    "scaling.why.title": {
        "en": "Why saturation hurts learning",
        "zh": "为什么饱和会妨碍学习",
    },
    "scaling.why.body": {
        "en": "Training improves $W^Q$ and $W^K$ only through the gradient that flows back through "
        "the softmax. The softmax's derivative is $\\alpha_i(\\delta_{ij} - \\alpha_j)$: when one "
        "weight is close to "
        "1 and the rest close to 0, every entry of it is close to 0 — the third chart measures "
        "exactly this. The scores can then move a lot while the weights barely respond, so "
        "the queries and keys receive almost no signal about how to do better.",
        "zh": "训练只能通过穿过 softmax 传回来的梯度来改进 $W^Q$ 和 $W^K$。softmax 的导数是 "
        "$\\alpha_i(\\delta_{ij} - \\alpha_j)$：当某个权重接近 1、其余接近 0 时，"
        "它的每一项都接近 0——第三张图测的"
        "正是这个量。此时分数即使大幅变化，权重也几乎不动，查询和键几乎得不到“怎样改进”的信号。",
    },
    "scaling.why.after": {
        "en": "Worse, at initialisation the winner is arbitrary: with random weights the "
        "saturated row has committed to one key before the model has learned anything, and it "
        "is then slow to change its mind. This is the reason the original Transformer paper "
        "gives for the factor 1/√d_k: it keeps the scores at unit scale, so the softmax starts "
        "out soft and learnable whatever d_k is chosen.",
        "zh": "更糟的是，初始化时胜出的那个键完全是随机的：权重还是随机的时候，饱和的那一行就已经"
        "押注在某一个键上，而模型还什么都没学到，之后也很难改变。原始 Transformer 论文引入 "
        "1/√d_k 正是出于这个原因：它让分数保持在单位量级，无论选多大的 d_k，softmax "
        "一开始都是柔和、可学习的。",
    },
    "scaling.solved": {
        "en": "dividing by √d_k keeps the scores at unit scale for any head size, so the "
        "softmax stays soft and gradients keep flowing.",
        "zh": "除以 √d_k 让任意头大小下的分数都保持在单位量级，"
        "softmax 保持柔和，梯度得以继续流动。",
    },
    "scaling.hurts": {
        "en": "one softmax row is still one distribution per token. Next: the whole n × n "
        "matrix, and then several heads to look for several things at once.",
        "zh": "每个 token 的一行 softmax 仍然只是一个分布。下一站：完整的 n × n 矩阵，"
        "然后用多个头同时关注多种东西。",
    },
}
