"""Words of the RNN and CNN page (prefix ``rnn.``): “From word vectors to Transformer” §7–9 and §31,
and the RNN row of “From Words to Attention”."""

MESSAGES: dict[str, dict[str, str]] = {
    "rnn_cnn.title": {
        "en": "RNN and CNN: reading a sentence before attention",
        "zh": "RNN 与 CNN：注意力出现之前怎样读句子",
    },
    "rnn_cnn.intro": {
        "en": "Embeddings give every token a vector, but a vector of *dog* alone does not know "
        "whose dog it is. Before attention, two designs mixed context into the vectors: a "
        "**recurrent network** carries a running state from token to token, and a "
        "**convolution** looks at a small window of neighbours. Both run below on your "
        "sentence, and both show the weakness that attention was invented to remove.",
        "zh": "词向量给了每个 token 一个向量，但单看 *dog* 的向量，并不知道这是谁的狗。"
        "在注意力出现之前，有两种把上下文揉进向量的设计：**循环神经网络**把一个状态从一个 token "
        "传到下一个 token，**卷积**则只看一小段相邻的窗口。下面两者都在你的句子上实际运行，"
        "也都会暴露出注意力后来要消除的那个弱点。",
    },
    "rnn_cnn.source": {
        "en": "Inputs: the toy model's {n} embedding {n:row|rows} of your sentence "
        "(d_model = {d}), looked up by the **{backend}** backend. The RNN and CNN weights are "
        "seeded, not trained, and are computed here with NumPy: neither is one of the backend's "
        "functions.",
        "zh": "输入：玩具模型为你的句子查出的 {n} 行词向量（d_model = {d}），由 **{backend}** "
        "后端查表得到。RNN 和 CNN 的权重用固定种子随机生成、没有经过训练，并在这里用 NumPy "
        "计算——它们都不属于后端提供的函数。",
    },
    "rnn_cnn.first_rows": {
        "en": "Showing the first {shown} of {n} rows.",
        "zh": "只显示 {n} 行中的前 {shown} 行。",
    },
    # --- RNN ------------------------------------------------------------------------------------
    "rnn_cnn.rnn.title": {"en": "An RNN reads one token per step", "zh": "RNN 每一步读一个 token"},
    "rnn_cnn.rnn.body": {
        "en": "A recurrent network keeps a hidden state h. At step t it reads the token xₜ and "
        "its own previous state, and squeezes both through tanh into the new state. Everything "
        "the network remembers about the tokens before t has to fit into that one vector.",
        "zh": "循环网络维护一个隐藏状态 h。在第 t 步，它读入 token xₜ 和自己上一步的状态，"
        "把二者一起经过 tanh 压成新的状态。关于第 t 个 token 之前的一切，网络记住的东西"
        "都必须挤进这一个向量里。",
    },
    "rnn_cnn.rho": {"en": "Scale of Wₕ (spectral radius ρ)", "zh": "Wₕ 的尺度（谱半径 ρ）"},
    "rnn_cnn.rho_help": {
        "en": "Wₕ is rescaled so that its largest eigenvalue in absolute value is ρ. Below about "
        "1 the state forgets quickly; well above 1 small changes can be amplified.",
        "zh": "Wₕ 会被缩放，使其绝对值最大的特征值等于 ρ。ρ 小于 1 左右时状态遗忘得很快；"
        "远大于 1 时，微小的变化可能被放大。",
    },
    "rnn_cnn.rnn.shapes": {
        "en": "Shapes: xₜ is a row of {d} numbers, Wₓ is {d} × {d}, Wₕ is {d} × {d}, b = 0, "
        "n = {n} steps. Measured spectral radius of Wₕ: {rho}.",
        "zh": "形状：xₜ 是 {d} 个数的行向量，Wₓ 为 {d} × {d}，Wₕ 为 {d} × {d}，b = 0，"
        "共 n = {n} 步。实测 Wₕ 的谱半径：{rho}。",
    },
    "rnn_cnn.rnn.step": {
        "en": "Step {t} reads “{token}”:",
        "zh": "第 {t} 步读入“{token}”：",
    },
    "rnn_cnn.chain.title": {
        "en": "**The chain.** Each state waits for the one before it:",
        "zh": "**这条链。** 每个状态都要等前一个状态算完：",
    },
    "rnn_cnn.chain.caption": {
        "en": "The circles' colour: log₁₀ ‖∂hₜ/∂x₁‖, how strongly the first token still moves "
        "each state (computed in the next section; lighter = stronger). Below them, the states "
        "themselves: one row per step, one column per unit of h.",
        "zh": "上面圆圈的颜色：log₁₀ ‖∂hₜ/∂x₁‖，即第一个 token 对各个状态还有多大影响"
        "（在下一节计算；越亮越强）。下面是这些状态本身：每步一行，h 的每个单元一列。",
    },
    "rnn_cnn.chart.log_sens": {"en": "log₁₀ ‖∂hₜ/∂x₁‖", "zh": "log₁₀ ‖∂hₜ/∂x₁‖（对数）"},
    "rnn_cnn.heat.rows": {"en": "state hₜ · token read", "zh": "状态 hₜ · 读入的 token"},
    "rnn_cnn.heat.cols": {"en": "unit", "zh": "单元"},
    "rnn_cnn.seq.title": {
        "en": "No parallelism across time",
        "zh": "时间维度上无法并行",
    },
    "rnn_cnn.seq.rnn_steps": {
        "en": "RNN: steps that must run one after another",
        "zh": "RNN：必须依次执行的步数",
    },
    "rnn_cnn.seq.attention_steps": {
        "en": "Self-attention layer: dependent steps",
        "zh": "自注意力层：相互依赖的步数",
    },
    "rnn_cnn.seq.body": {
        "en": "hₜ = f(hₜ₋₁, xₜ): the state at step t cannot be computed before the state at "
        "step t − 1 exists. Your {n} {n:token|tokens} therefore take {n} strictly sequential "
        "{n:step|steps}, however many processors are available. During training this is the real "
        "cost — the original Transformer paper names exactly this recurrence as what blocks "
        "parallelisation along the sequence. A self-attention layer computes all n outputs from "
        "the same inputs at once.",
        "zh": "hₜ = f(hₜ₋₁, xₜ)：第 t 步的状态必须等第 t − 1 步的状态算出来才能开始。"
        "所以你的 {n} 个 token 需要 {n} 个严格先后执行的步骤，多少处理器都帮不上忙。"
        "训练时这正是主要代价——原始 Transformer 论文明确指出，正是这种递归限制了沿序列方向"
        "的并行化。自注意力层则可以用同一批输入一次算出全部 n 个输出。",
    },
    # --- gradient -------------------------------------------------------------------------------
    "rnn_cnn.grad.title": {
        "en": "How much does the first token still move hₜ?",
        "zh": "第一个 token 对 hₜ 还有多大影响？",
    },
    "rnn_cnn.grad.body": {
        "en": "If token 1 matters for the state at step t, a small change of x₁ must still "
        "change hₜ. The chain rule gives that sensitivity exactly: one Jacobian per step, "
        "multiplied together. Each factor contains Wₕ and the tanh slope 1 − h², which is "
        "never above 1. A long product of such factors tends to shrink towards 0 "
        "(**vanishing gradients**) or blow up (**exploding gradients**) — the same product "
        "carries the training signal back from step t to token 1.",
        "zh": "如果第 1 个 token 对第 t 步的状态有用，那么 x₁ 的微小变化就必须仍能改变 hₜ。"
        "链式法则可以精确算出这种敏感度：每一步一个雅可比矩阵，全部连乘起来。"
        "每个因子里都有 Wₕ 和 tanh 的斜率 1 − h²，而后者永远不超过 1。这样一长串因子的乘积，"
        "往往会缩向 0（**梯度消失**）或者急剧变大（**梯度爆炸**）——训练信号从第 t 步传回第 1 个 "
        "token 时，走的正是这同一个乘积。",
    },
    "rnn_cnn.grad.norm_note": {
        "en": "‖·‖ is the spectral norm (largest singular value): the most that any small change "
        "of x₁ can be stretched on its way to hₜ. Computed exactly, step by step; the running "
        "product is renormalised and its scale kept as a logarithm, so even 10⁻⁴⁰⁰ is not lost.",
        "zh": "‖·‖ 是谱范数（最大奇异值）：x₁ 的任意微小变化在传到 hₜ 的过程中最多会被拉伸多少倍。"
        "逐步精确计算；连乘的结果每一步都重新归一化，并以对数记录其量级，所以即使是 10⁻⁴⁰⁰ "
        "也不会丢失。",
    },
    "rnn_cnn.steps": {
        "en": "Length of the chain T (your sentence, repeated)",
        "zh": "链的长度 T（把你的句子重复接上）",
    },
    "rnn_cnn.steps_help": {
        "en": "A short sentence gives only a few points, so the chain can be continued by "
        "feeding the sentence again and again. T never goes below the sentence's own length.",
        "zh": "短句子只能画出几个点，所以可以把句子反复接在后面继续喂给 RNN。"
        "T 不会小于句子本身的长度。",
    },
    "rnn_cnn.part.sentence": {"en": "your sentence", "zh": "你的句子"},
    "rnn_cnn.part.repeat": {"en": "sentence repeated", "zh": "重复接上的句子"},
    "rnn_cnn.part.reference": {
        "en": "Wₕ alone, no tanh slope (reference)",
        "zh": "只看 Wₕ、不计 tanh 斜率（参照）",
    },
    "rnn_cnn.metric.ref_factor": {
        "en": "per step without the tanh slope",
        "zh": "不计 tanh 斜率时每步的倍数",
    },
    "rnn_cnn.metric.ref_factor_help": {
        "en": "‖(Wₕᵀ)^(t−1) Wₓᵀ‖ grows or shrinks like ρ^(t−1) on long chains; here ρ = {rho}.",
        "zh": "在长链上，‖(Wₕᵀ)^(t−1) Wₓᵀ‖ 大致按 ρ^(t−1) 增长或缩小；这里 ρ = {rho}。",
    },
    "rnn_cnn.grad.squash": {
        "en": "The dashed line is the same chain with the tanh slopes left out: only Wₕ, "
        "multiplied again and again, so on long chains it shrinks or grows about like ρᵗ (the "
        "measured factor per step, beside ρ above, is close to ρ but not equal: Wₕ is not "
        "symmetric) — it vanishes for ρ < 1 and explodes for ρ > 1. The real tanh chain lies at "
        "or below that trend, because each slope "
        "1 − h² is at most 1 and is small wherever a unit is saturated near ±1. So with tanh, "
        "vanishing is the common failure; exploding needs a large ρ *and* units that stay "
        "away from saturation — try ρ around 3 to 6.",
        "zh": "虚线是去掉 tanh 斜率后的同一条链：只有 Wₕ 被一次又一次地相乘，"
        "所以在长链上它大致按 ρᵗ 缩小或增长（上面实测的每步倍数接近 ρ 但不相等："
        "Wₕ 不是对称矩阵）——ρ < 1 时消失，ρ > 1 时爆炸。真实的 tanh 链位于这条趋势线上或其下方，"
        "因为每个斜率 1 − h² 都不超过 1，而在单元接近 ±1 饱和时会很小。所以对 tanh 来说，"
        "梯度消失是常见的毛病；梯度爆炸则需要较大的 ρ，*并且*单元没有陷入饱和——"
        "可以试试 ρ 在 3 到 6 之间。",
    },
    "rnn_cnn.chart.sens": {"en": "‖∂hₜ/∂x₁‖ (log scale)", "zh": "‖∂hₜ/∂x₁‖（对数坐标）"},
    "rnn_cnn.chart.part": {"en": "input", "zh": "输入"},
    "rnn_cnn.grad.off_scale": {
        "en": "{count} {count:point|points} fell outside the range of float64 and are not drawn; "
        "the metrics below still show them.",
        "zh": "有 {count} 个点超出了 float64 的表示范围，没有画出；下面的指标仍然给出了它们的值。",
    },
    "rnn_cnn.metric.at_n": {
        "en": "‖∂hₙ/∂x₁‖, sentence end (n = {n})",
        "zh": "句末的 ‖∂hₙ/∂x₁‖（n = {n}）",
    },
    "rnn_cnn.metric.at_steps": {"en": "‖∂h_T/∂x₁‖ at T = {T}", "zh": "T = {T} 处的 ‖∂h_T/∂x₁‖"},
    "rnn_cnn.metric.factor": {
        "en": "average factor per step",
        "zh": "平均每步的倍数",
    },
    "rnn_cnn.verdict.one_step": {
        "en": "With a single step there is no chain yet: lengthen T or the sentence.",
        "zh": "只有一步时还谈不上链条：请加大 T 或写更长的句子。",
    },
    "rnn_cnn.verdict.vanish": {
        "en": "**Vanishing.** On average every step multiplies the sensitivity by {factor}, so "
        "it halves about every {half} steps. Far-away tokens barely reach the state, and the "
        "gradient that should teach the network about them fades the same way.",
        "zh": "**梯度消失。** 平均每一步把敏感度乘以 {factor}，大约每 {half} 步就减半。"
        "距离远的 token 几乎影响不到状态，本应教会网络利用它们的梯度也以同样的方式衰减掉。",
    },
    "rnn_cnn.verdict.explode": {
        "en": "**Exploding.** On average every step multiplies the sensitivity by {factor}, so "
        "it doubles about every {double} steps. A tiny change of the first token ends up "
        "shaking the state hard, and gradient steps become unstable.",
        "zh": "**梯度爆炸。** 平均每一步把敏感度乘以 {factor}，大约每 {double} 步就翻一倍。"
        "第一个 token 的一点点变化，最后会剧烈地搅动状态，梯度更新也随之变得不稳定。",
    },
    "rnn_cnn.verdict.steady": {
        "en": "**Near the edge.** The average factor per step is {factor}, close to 1: the signal "
        "neither dies nor explodes over this length. That balance is fragile — move ρ a "
        "little and watch the slope.",
        "zh": "**处在临界附近。** 平均每步的倍数是 {factor}，接近 1：在这个长度内信号既没有消失"
        "也没有爆炸。但这种平衡很脆弱——稍微调一下 ρ，看看斜率怎么变。",
    },
    "rnn_cnn.grad.after": {
        "en": "LSTM and GRU cells add gates that let information pass many steps almost "
        "unchanged, which eases this problem a great deal. They do not remove the path itself: "
        "token 1 still reaches token 100 through 99 successive states, computed one after "
        "another.",
        "zh": "LSTM 和 GRU 加入了门控，让信息可以几乎原样地穿过许多步，大大缓解了这个问题。"
        "但路径本身还在：第 1 个 token 要影响第 100 个 token，仍然要经过 99 个依次计算的状态。",
    },
    # --- CNN ------------------------------------------------------------------------------------
    "rnn_cnn.cnn.title": {
        "en": "A CNN looks through a window of k tokens",
        "zh": "CNN 透过 k 个 token 的窗口观察",
    },
    "rnn_cnn.cnn.body": {
        "en": "A 1-D convolution puts k neighbouring token vectors side by side and projects "
        "them with one shared matrix W. No window waits for another, so all of them are "
        "computed at once — here, literally one matrix product. Convolutions are good at local "
        "patterns, much like learned n-grams; but a single layer never sees beyond its window.",
        "zh": "一维卷积把 k 个相邻 token 的向量拼在一起，再用同一个共享矩阵 W 投影。"
        "窗口之间互不等待，所以可以同时计算——在这里就是一次矩阵乘法。卷积擅长捕捉局部模式，"
        "很像可学习的 n-gram；但单独一层永远看不到窗口之外。",
    },
    "rnn_cnn.k": {"en": "Window size k", "zh": "窗口大小 k"},
    "rnn_cnn.k_help": {
        "en": "How many consecutive tokens one convolution reads at once.",
        "zh": "一次卷积同时读取多少个连续的 token。",
    },
    "rnn_cnn.cnn.too_short": {
        "en": "Your sentence has {n} {n:token|tokens}, fewer than the window k = {k}: no full "
        "window fits. Pick a smaller k or type a longer sentence.",
        "zh": "你的句子只有 {n} 个 token，比窗口 k = {k} 还少，放不下一个完整的窗口。"
        "请选更小的 k，或者写更长的句子。",
    },
    "rnn_cnn.cnn.windows": {
        "en": "{count} {count:window|windows} of k = {k} tokens; each concatenation has {d_in} "
        "numbers and W maps it to {d}. Every row below was computed in the same matrix product:",
        "zh": "共 {count} 个窗口，每个包含 k = {k} 个 token；"
        "拼接后每个有 {d_in} 个数，W 把它映射到 {d} 维。下面每一行都出自同一次矩阵乘法：",
    },
    "rnn_cnn.cnn.rows": {"en": "window cᵢ", "zh": "窗口 cᵢ"},
    "rnn_cnn.field.title": {
        "en": "Stacking layers to reach further",
        "zh": "叠加层数才能看得更远",
    },
    "rnn_cnn.field.body": {
        "en": "A second layer of windows over the first layer's outputs sees k − 1 more tokens, "
        "and so on: after L layers one unit covers 1 + L(k − 1) consecutive tokens. Two tokens "
        "can only influence each other once that span reaches from one to the other. Pick two "
        "tokens of your sentence:",
        "zh": "在第一层输出上再做一层窗口卷积，就能多看到 k − 1 个 token，依此类推："
        "L 层之后，一个单元覆盖 1 + L(k − 1) 个连续的 token。只有当这个范围从一个 token "
        "延伸到另一个 token 时，两者才能相互影响。从你的句子里挑两个 token：",
    },
    "rnn_cnn.field.i": {"en": "Token i", "zh": "第一个 token（i）"},
    "rnn_cnn.field.j": {"en": "Token j", "zh": "第二个 token（j）"},
    "rnn_cnn.field.distance": {"en": "distance |i − j|", "zh": "距离 |i − j|"},
    "rnn_cnn.field.layers": {"en": "CNN layers to link them", "zh": "CNN 需要的层数"},
    "rnn_cnn.field.rnn_steps": {"en": "RNN steps between them", "zh": "RNN 需要经过的步数"},
    "rnn_cnn.field.same": {
        "en": "i and j are the same token: nothing to link. Pick two different positions.",
        "zh": "i 和 j 是同一个 token，无需建立联系。请选择两个不同的位置。",
    },
    "rnn_cnn.field.one_token": {
        "en": "Your sentence has a single token, so there is nothing to link. Type a longer "
        "sentence to pick two positions.",
        "zh": "你的句子只有一个 token，没有什么需要连接。输入更长的句子，就能挑选两个位置。",
    },
    "rnn_cnn.field.x": {"en": "layers L", "zh": "层数 L"},
    "rnn_cnn.field.y": {"en": "tokens one unit sees", "zh": "一个单元能看到的 token 数"},
    "rnn_cnn.field.needed": {"en": "needed: {span}", "zh": "需要：{span}"},
    "rnn_cnn.field.tokens": {"en": "token", "zh": "token"},
    "rnn_cnn.grid.pair": {"en": "i or j, reached", "zh": "已覆盖的 i 或 j"},
    "rnn_cnn.grid.seen": {"en": "seen", "zh": "已覆盖"},
    "rnn_cnn.grid.unseen": {"en": "not yet", "zh": "尚未覆盖"},
    "rnn_cnn.grid.caption": {
        "en": "Row L: the tokens seen after L layers by the unit whose window starts at {start}.",
        "zh": "第 L 行：窗口从 {start} 开始的那个单元，在 L 层之后能看到的 token。",
    },
    "rnn_cnn.grid.too_big": {
        "en": "The two tokens are too far apart to draw the layers one by one; the chart on the "
        "left shows the same count.",
        "zh": "这两个 token 相距太远，无法逐层画出；左边的图给出了同样的层数。",
    },
    # --- comparison -----------------------------------------------------------------------------
    "rnn_cnn.cmp.title": {
        "en": "RNN, CNN and self-attention side by side",
        "zh": "RNN、CNN 与自注意力的对比",
    },
    "rnn_cnn.cmp.body": {
        "en": "The formulas are per layer, as in Table 1 of *Attention Is All You Need*; the "
        "numbers after them are computed for your sentence, your k and the representation size "
        "d below. The lower rows summarise the article's qualitative comparison.",
        "zh": "表中公式按每层计算，与《Attention Is All You Need》的表 1 一致；"
        "公式后面的数字是用你的句子、你选的 k 和下面的表示维度 d 算出来的。"
        "下面几行概括了原文的定性比较。",
    },
    "rnn_cnn.cmp.d": {"en": "Representation size d", "zh": "表示维度 d"},
    "rnn_cnn.cmp.d_help": {
        "en": "512 is the original Transformer's d_model — a chosen width, not a limit on "
        "sentence length.",
        "zh": "512 是原始 Transformer 的 d_model——这是选定的向量宽度，而不是句子长度的上限。",
    },
    "rnn_cnn.cmp.aspect": {"en": "aspect", "zh": "对比项"},
    "rnn_cnn.cmp.col.attention": {"en": "Self-attention", "zh": "自注意力"},
    "rnn_cnn.cmp.mechanism": {"en": "mechanism", "zh": "基本机制"},
    "rnn_cnn.cmp.sequential": {
        "en": "sequential operations per layer",
        "zh": "每层必须顺序执行的操作数",
    },
    "rnn_cnn.cmp.max_path": {
        "en": "longest path between two tokens",
        "zh": "两个 token 之间的最长路径",
    },
    "rnn_cnn.cmp.path_ij": {
        "en": "path from “{i}” to “{j}”",
        "zh": "从“{i}”到“{j}”的路径",
    },
    "rnn_cnn.cmp.cost": {
        "en": "work per layer (multiply-adds)",
        "zh": "每层计算量（乘加次数）",
    },
    "rnn_cnn.cmp.parallel": {
        "en": "parallel training over positions",
        "zh": "序列内部的训练并行性",
    },
    "rnn_cnn.cmp.position": {"en": "word order comes from", "zh": "位置信息从何而来"},
    "rnn_cnn.cmp.local": {"en": "local patterns", "zh": "局部模式"},
    "rnn_cnn.cmp.long": {"en": "long-range relations", "zh": "长距离关系"},
    "rnn_cnn.cmp.problem": {"en": "main trouble on long inputs", "zh": "长序列的主要问题"},
    "rnn_cnn.cmp.rnn.mechanism": {"en": "recurrent state", "zh": "递归状态"},
    "rnn_cnn.cmp.cnn.mechanism": {"en": "local convolution", "zh": "局部卷积"},
    "rnn_cnn.cmp.att.mechanism": {"en": "content-based lookup", "zh": "基于内容的检索"},
    "rnn_cnn.cmp.rnn.parallel": {"en": "weak", "zh": "弱"},
    "rnn_cnn.cmp.cnn.parallel": {"en": "strong", "zh": "强"},
    "rnn_cnn.cmp.att.parallel": {"en": "strong", "zh": "强"},
    "rnn_cnn.cmp.rnn.position": {"en": "the order of the steps", "zh": "递归顺序本身"},
    "rnn_cnn.cmp.cnn.position": {"en": "the window's layout", "zh": "窗口内的局部结构"},
    "rnn_cnn.cmp.att.position": {
        "en": "an explicit positional signal",
        "zh": "通常需要显式的位置编码",
    },
    "rnn_cnn.cmp.rnn.local": {"en": "good", "zh": "较好"},
    "rnn_cnn.cmp.cnn.local": {"en": "very strong", "zh": "很强"},
    "rnn_cnn.cmp.att.local": {"en": "learnable", "zh": "可以学到"},
    "rnn_cnn.cmp.rnn.long": {"en": "a long chain of states", "zh": "要经过很长的状态链"},
    "rnn_cnn.cmp.cnn.long": {"en": "needs depth to widen the view", "zh": "需要多层扩大感受野"},
    "rnn_cnn.cmp.att.long": {"en": "direct, within one layer", "zh": "单层内直接交互"},
    "rnn_cnn.cmp.rnn.problem": {
        "en": "sequential steps, fading long-range signal",
        "zh": "顺序计算，长距离信号衰减",
    },
    "rnn_cnn.cmp.cnn.problem": {
        "en": "many layers to connect far tokens",
        "zh": "远距离要靠深层传播",
    },
    "rnn_cnn.cmp.att.problem": {
        "en": "cost grows as n² with the length",
        "zh": "计算量随长度呈 n² 增长",
    },
    "rnn_cnn.cmp.caption": {
        "en": "Computed for n = {n} {n:token|tokens}, window k = {k}, d = {d}. “Path” counts the "
        "steps (RNN) or layers (CNN, attention) information needs to travel between two positions.",
        "zh": "按 n = {n} 个 token、窗口 k = {k}、d = {d} 计算。“路径”是信息在两个位置之间传递"
        "所需的步数（RNN）或层数（CNN、注意力）。",
    },
    "rnn_cnn.cmp.dilated": {
        "en": "With contiguous windows a CNN needs {plain} {plain:layer|layers} to connect the two "
        "ends of your sentence. Dilated convolutions (gaps that grow ×{k} per layer) shorten that "
        "to {layers} — O(log_k n) — but the path still grows with the length; in self-attention it "
        "is 1.",
        "zh": "用连续窗口时，CNN 需要 {plain} 层才能连通你句子的首尾。空洞卷积（每层间隔扩大 {k} "
        "倍）可以把它缩短到 {layers} 层——O(log_k n)——但路径仍随长度增长；而在自注意力里它是 1。",
    },
    "rnn_cnn.cmp.one_token": {
        "en": "Your sentence is a single token (n = {n}), so there are no two positions to "
        "connect: every path in the table is 0. Type a longer sentence to see a CNN's path grow "
        "with the distance while self-attention's stays at 1.",
        "zh": "你的句子只有一个 token（n = {n}），没有两个位置需要连通：表中每条路径都是 0。"
        "输入更长的句子，就能看到 CNN 的路径随距离增长，而自注意力的路径始终是 1。",
    },
    "rnn_cnn.cmp.dilated_same": {
        "en": "With contiguous windows a CNN needs {plain} {plain:layer|layers} to connect the two "
        "ends of your sentence, and at n = {n} dilated convolutions (gaps that grow ×{k} per "
        "layer) need as many. They pay off on longer inputs, where their path grows as "
        "O(log_k n) instead of O(n / k) — but it still grows; in self-attention it is 1.",
        "zh": "用连续窗口时，CNN 需要 {plain} 层才能连通你句子的首尾；在 n = {n} 时，空洞卷积"
        "（每层间隔扩大 {k} 倍）也需要这么多层。它们在更长的输入上才显出优势：路径按 "
        "O(log_k n) 而不是 O(n / k) 增长——但仍在增长；而在自注意力里它是 1。",
    },
    "rnn_cnn.cmp.cheaper_attention": {
        "en": "Here n = {n} is smaller than d = {d}, so attention's mixing of the tokens (n²·d) "
        "costs less than the recurrence (n·d²) — the usual case for sentences. (Both counts "
        "leave out the projections every token goes through, about n·d² per matrix; the Cost "
        "page adds them.)",
        "zh": "这里 n = {n} 小于 d = {d}，所以注意力在 token 之间的混合（n²·d）比循环（n·d²）"
        "还省——对普通句子来说通常如此。（两者都没算每个 token 要经过的投影，每个矩阵大约 "
        "n·d²；“计算代价”页把它们加了进来。）",
    },
    "rnn_cnn.cmp.cheaper_rnn": {
        "en": "Here n = {n} is at least d = {d}, so attention's mixing of the tokens (n²·d) "
        "costs at least as much as the recurrence (n·d²): the quadratic cost that long inputs "
        "pay.",
        "zh": "这里 n = {n} 不小于 d = {d}，所以注意力在 token 之间的混合（n²·d）不比循环（n·d²）"
        "省：这就是长输入要付出的二次代价。",
    },
    "rnn_cnn.cmp.caveats": {
        "en": "Two things the table does not say. “Parallel” means that during training all "
        "positions of a layer are computed at the same time; a Transformer that *generates* "
        "text still produces one token after another, because each new token depends on the "
        "ones before it. And n counts tokens, not words — a tokenizer can split one word into "
        "several.",
        "zh": "有两点表格里没有写出。“并行”指的是训练时同一层的所有位置可以同时计算；"
        "Transformer 在*生成*文本时仍然是一个 token 接一个 token 地输出，因为每个新 token "
        "都依赖之前生成的 token。另外，n 数的是 token 而不是单词——"
        "分词器可能把一个单词切成好几个 token。",
    },
    "rnn_cnn.solved": {
        "en": "an RNN gives a state that follows the sentence, and a CNN finds local patterns "
        "in parallel.",
        "zh": "RNN 提供了随句子推进的动态状态，CNN 能并行地发现局部模式。",
    },
    "rnn_cnn.hurts": {
        "en": "the RNN's long chain is fragile and strictly sequential; the CNN needs many "
        "layers to connect distant tokens. Next: let every token reach every other directly.",
        "zh": "RNN 的长链很脆弱，而且只能严格按顺序计算；CNN 要堆很多层才能连通远处的 token。"
        "下一步：让每个 token 都能直接够到其他所有 token。",
    },
    # --- words inside formulas (through views.latex.tex_words) ---
    "rnn_cnn.tex.field": {"en": "receptive field", "zh": "感受野"},
}
