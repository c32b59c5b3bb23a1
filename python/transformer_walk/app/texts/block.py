"""Words of the Transformer-block page (prefix ``blk.``)."""

MESSAGES: dict[str, dict[str, str]] = {
    "block.title": {"en": "The Transformer block", "zh": "Transformer 块"},
    "block.intro": {
        "en": 'Calling a Transformer "a QKV network" leaves most of it out. $Q$, $K$, $V$ are how '
        "its attention is parameterised, but one block of the original encoder does more: "
        "multi-head self-attention, a residual connection, LayerNorm, a position-wise "
        "feed-forward network, another residual connection and another LayerNorm. Attention "
        "moves information **between** tokens; the FFN transforms each token's features **on "
        "its own**, non-linearly. (A decoder adds a causal mask, and an encoder–decoder model a "
        "cross-attention sub-layer.) Below is the toy model's block, run on your sentence.",
        "zh": "把 Transformer 说成“QKV 网络”会漏掉它的大部分内容。$Q$、$K$、$V$ 是其注意力的"
        "参数化方式，但原始编码器的一个块做的事更多：多头自注意力、残差连接、LayerNorm、逐位置的"
        "前馈网络，再一次残差连接和 LayerNorm。注意力在 token **之间**传递信息；FFN 则**单独**"
        "对每个 token 的特征做非线性变换。（解码器还要加因果遮罩，编码器–解码器模型的解码器另有"
        "交叉注意力子层。）下面是玩具模型的一个块，在你的句子上运行。",
    },
    "block.computing": {"en": "Running the toy model…", "zh": "正在运行玩具模型…"},
    "block.norm.label": {"en": "Where LayerNorm sits", "zh": "LayerNorm 的位置"},
    "block.norm.post": {"en": "Post-LN (original)", "zh": "Post-LN（原始，后归一化）"},
    "block.norm.pre": {"en": "Pre-LN", "zh": "Pre-LN（先归一化）"},
    "block.norm.help": {
        "en": "Post-LN normalises after each residual addition, as in the 2017 paper; Pre-LN "
        "normalises the input of each sub-layer and leaves the residual path untouched.",
        "zh": "Post-LN 在每次残差相加之后做归一化，与 2017 年的论文一致；Pre-LN 对每个子层的输入"
        "做归一化，而让残差通路保持不变。",
    },
    "block.layers": {"en": "Blocks stacked (L)", "zh": "堆叠的块数（L）"},
    "block.layer_pick": {"en": "Block to look inside", "zh": "查看哪一个块"},
    "block.layer_label": {"en": "block {number}", "zh": "第 {number} 个块"},
    "block.node.input": {"en": "input X", "zh": "输入 X"},
    "block.node.mha": {"en": "multi-head attention", "zh": "多头注意力"},
    "block.node.add": {"en": "add (residual)", "zh": "相加（残差）"},
    "block.node.ffn": {"en": "FFN (d_ff = {d_ff})", "zh": "前馈网络 FFN（d_ff = {d_ff}）"},
    "block.node.out": {"en": "output", "zh": "输出"},
    "block.roles": {
        "en": "Each box shows the shape of what it produces for your sentence, $[n, "
        "d_{\\text{model}}]$ everywhere but inside the FFN (its hidden layer is $[n, "
        "d_{\\text{ff}}]$, in the table below): a block takes $n$ vectors and returns $n$ "
        "vectors of the same width, which is what lets blocks be stacked. Dashed arrows are the "
        "residual paths. The weights of one block:",
        "zh": "每个方框显示它为你的句子产生的结果的形状，除了 FFN 内部（其隐藏层是 "
        "$[n, d_{\\text{ff}}]$，见下表），处处都是 $[n, d_{\\text{model}}]$："
        "一个块接收 $n$ 个向量，返回同样宽度的 $n$ 个向量，这正是块可以堆叠的原因。虚线箭头是"
        "残差通路。一个块的权重数量：",
    },
    "block.params_note": {
        "en": "The toy LayerNorm has no learned scale and shift (γ = 1, β = 0); real models learn "
        "2·d_model more numbers per LayerNorm.",
        "zh": "玩具模型的 LayerNorm 没有可学习的缩放和平移（γ = 1，β = 0）；真实模型的每个 "
        "LayerNorm 还要多学习 2·d_model 个数。",
    },
    "block.stages.title": {"en": "Every step, with its numbers", "zh": "每一步及其数值"},
    "block.stages.body": {
        "en": "The steps in the order the block computes them. For every token's row we take "
        "the mean and the variance over its features; the table shows their average over the "
        "tokens. Rows marked LN come out of a LayerNorm.",
        "zh": "按块的计算顺序列出每一步。对每个 token 的那一行，我们求它在各特征上的均值和方差；"
        "表中给出的是这些值在所有 token 上的平均。标有 LN 的行是 LayerNorm 的输出。",
    },
    "block.col.step": {"en": "step", "zh": "步骤"},
    "block.col.formula": {"en": "formula", "zh": "公式"},
    "block.col.shape": {"en": "shape", "zh": "形状"},
    "block.col.mean": {"en": "row mean", "zh": "行均值"},
    "block.col.var": {"en": "row variance", "zh": "行方差"},
    "block.stages.chart": {
        "en": "Each token's row variance at each step: after a LayerNorm every token lands on 1.",
        "zh": "每个 token 在每一步的行方差：经过 LayerNorm 后，每个 token 的方差都落在 1 上。",
    },
    "block.first_rows": {
        "en": "The first {shown} of {n} tokens are drawn.",
        "zh": "图中只画出了 {n} 个 token 中的前 {shown} 个。",
    },
    "block.stages.pick": {"en": "Show the numbers of one step", "zh": "显示某一步的数值"},
    "block.axis.feature": {"en": "feature", "zh": "特征"},
    "block.axis.value": {"en": "value", "zh": "数值"},
    "block.stage.x_in": {"en": "input X", "zh": "输入 X"},
    "block.stage.attn_in": {"en": "LayerNorm of X", "zh": "X 的 LayerNorm"},
    "block.stage.attn_out": {"en": "attention output", "zh": "注意力输出"},
    "block.stage.resid1": {"en": "first residual sum", "zh": "第一次残差相加"},
    "block.stage.norm1": {"en": "LayerNorm before the FFN", "zh": "FFN 前的 LayerNorm"},
    "block.stage.ffn_hidden": {"en": "FFN hidden (ReLU)", "zh": "FFN 隐藏层（ReLU）"},
    "block.stage.ffn_out": {"en": "FFN output", "zh": "FFN 输出"},
    "block.stage.resid2": {"en": "second residual sum", "zh": "第二次残差相加"},
    "block.stage.out": {"en": "block output", "zh": "块的输出"},
    "block.ln.title": {"en": "LayerNorm, row by row", "zh": "LayerNorm：逐行归一化"},
    "block.ln.body": {
        "en": "LayerNorm looks at one token's vector at a time — never at the other tokens — "
        "and shifts and rescales it so that its features have mean 0 and variance 1. Compare "
        "each token before and after:",
        "zh": "LayerNorm 每次只看一个 token 的向量——从不看其他 token——把它平移并缩放，使其各"
        "特征的均值为 0、方差为 1。比较每个 token 归一化前后的统计量：",
    },
    "block.ln.pair": {
        "en": "**{before}** → **{after}**, token by token",
        "zh": "逐个 token 比较：**{before}** → **{after}**",
    },
    "block.ln.eps": {
        "en": "The variance comes out a hair under 1 because of ε = 1e-5 in the denominator — "
        "about 1 − ε/σ², too little to show at four decimals.",
        "zh": "由于分母中有 ε = 1e-5，归一化后的方差略小于 1——大约是 1 − ε/σ²，"
        "小到四位小数显示不出来。",
    },
    "block.ffn.title": {"en": "The feed-forward network", "zh": "前馈网络"},
    "block.ffn.body": {
        "en": "The same two-layer network is applied to every position separately: widen to "
        "$d_{\\text{ff}}$ (4 × $d_{\\text{model}}$ in the original, 2048 for 512), cut the "
        "negatives with ReLU, narrow back. No token sees another here; the mixing was "
        "attention's job.",
        "zh": "同一个两层网络分别作用于每个位置：先扩展到 $d_{\\text{ff}}$（原始论文中是 "
        "$d_{\\text{model}}$ 的 4 倍，512 对应 2048），用 ReLU 截去负值，再压缩回来。这里没有"
        "任何 token 能看到别的 token；混合信息是注意力的工作。",
    },
    "block.ffn.zeros": {
        "en": "Hidden units set to 0 by ReLU in this block",
        "zh": "本块中被 ReLU 置为 0 的隐藏单元",
    },
    "block.why.title": {"en": "Why residuals and LayerNorm?", "zh": "为什么要残差和 LayerNorm？"},
    "block.why.body": {
        "en": "**Residuals.** Each sub-layer only *adds* a correction to its input instead of "
        "replacing it. The token's original information keeps a direct road through the block, "
        "and during training the gradient has a short path back to the early layers — the "
        "reason deep stacks can be trained at all.\n\n"
        "**LayerNorm.** Adding corrections again and again lets the numbers drift in scale. "
        "Normalising each token's vector keeps the values in a range where softmax and ReLU "
        "behave and training stays stable.\n\n"
        "**Post-LN or Pre-LN.** The original puts LayerNorm after each addition, so the "
        "residual path itself is normalised every time. Many later models move it in front of "
        "each sub-layer: the residual path stays a plain sum, which tends to train more easily "
        "in deep stacks (often without the careful warm-up Post-LN needs), at the price of a "
        "stream whose scale is free to grow — see the last chart.",
        "zh": "**残差**。每个子层只是在输入上*加*一个修正，而不是替换它。token 原有的信息在块中"
        "保留了一条直达的通路；训练时，梯度也有一条回到前面各层的捷径——这正是深层堆叠能够被"
        "训练的原因。\n\n"
        "**LayerNorm**。一次又一次地叠加修正，会让数值的尺度逐渐漂移。把每个 token 的向量归一化，"
        "可以让数值保持在 softmax 和 ReLU 表现良好的范围内，使训练保持稳定。\n\n"
        "**Post-LN 还是 Pre-LN**？原始论文把 LayerNorm 放在每次相加之后，因此残差通路本身每次"
        "都被归一化。后来的许多模型把它移到每个子层之前：残差通路保持为简单的求和，深层堆叠往往"
        "更容易训练（常常不需要 Post-LN 所依赖的精细预热），代价是这条通路的尺度可以自由增长——"
        "见最后一张图。",
    },
    "block.stack.title": {"en": "Stacking L blocks", "zh": "堆叠 L 个块"},
    "block.stack.body": {
        "en": "Each block's output is the next block's input, with the same shape. With "
        "$L = {layers}$, follow each token: the cosine between its vector after block $\\ell$ "
        "and its own input $x^{{(0)}}$ shows how far the blocks have carried it. The toy's "
        "weights are random, not trained, so the path says nothing about meaning — only about "
        "how the pieces move numbers.",
        "zh": "每个块的输出就是下一个块的输入，形状相同。当 $L = {layers}$ 时，跟踪每个 token："
        "它在第 $\\ell$ 个块之后的向量与它自己的输入 $x^{{(0)}}$ 之间的余弦，表示这些块把它带出"
        "了多远。玩具模型的权重是随机的、未经训练，所以这条轨迹与词义无关——只反映各部件如何"
        "改变数值。",
    },
    "block.stack.block": {"en": "after block ℓ (0 = input)", "zh": "第 ℓ 个块之后（0 = 输入）"},
    "block.stack.cos": {"en": "cos with the token's input", "zh": "与该 token 输入的余弦"},
    "block.compare.title": {
        "en": "Post-LN vs Pre-LN, block by block",
        "zh": "逐块比较 Post-LN 与 Pre-LN",
    },
    "block.compare.body": {
        "en": "The mean length of the token vectors after each block, for both placements on the "
        "same sentence and weights. Post-LN ends every block with a LayerNorm, so the length "
        "stays at $\\sqrt{d_{\\text{model}}}$; in Pre-LN the residual stream is a running sum "
        "and usually grows.",
        "zh": "同一个句子、同一组权重下，两种放置方式在每个块之后 token 向量的平均长度。Post-LN "
        "的每个块都以 LayerNorm 结束，所以长度保持在 $\\sqrt{d_{\\text{model}}}$；Pre-LN 的残差"
        "通路是一个不断累加的和，通常会变长。",
    },
    "block.compare.length": {"en": "mean ‖x‖", "zh": "平均 ‖x‖"},
    "block.solved": {
        "en": "A complete, stackable layer: attention to mix tokens, an FFN to transform each one, "
        "residuals and LayerNorm to keep deep stacks trainable.",
        "zh": "一个完整、可堆叠的层：注意力负责混合 token，FFN 负责变换每个 token，残差和 "
        "LayerNorm 让深层堆叠可以训练。",
    },
    "block.hurts": {
        "en": "Every block compares all pairs of tokens: n² work and memory, which the pipeline "
        "and cost stops look at.",
        "zh": "每个块都要比较所有 token 对：计算量和内存都是 n² 级别，后面的“完整流程”和“代价”"
        "两站会讨论这一点。",
    },
}
