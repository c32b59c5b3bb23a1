"""Words of the Seq2seq page (prefix ``s2s.``)."""

MESSAGES: dict[str, dict[str, str]] = {
    "s2s.title": {
        "en": "Seq2seq and its bottleneck",
        "zh": "Seq2seq 与它的瓶颈",
    },
    "s2s.intro": {
        "en": "Translation maps a sequence to a sequence of a different length and order. The "
        "encoder–decoder (seq2seq) answer: an RNN **encoder** reads the source word by word "
        "into states $\\boldsymbol h_1 \\dots \\boldsymbol h_T$ and hands its last state to "
        "the **decoder** as the context $\\boldsymbol c$; the decoder then writes the "
        "translation, using that same $\\boldsymbol c$ at every step.",
        "zh": "翻译要把一个序列映射成另一个长度和词序都可能不同的序列。编码器–解码器（seq2seq）"
        "的做法是：RNN **编码器**逐词读入源句子，得到状态 $\\boldsymbol h_1 \\dots "
        "\\boldsymbol h_T$，再把最后一个状态作为上下文 $\\boldsymbol c$ 交给**解码器**；"
        "解码器随后逐词写出译文，每一步用的都是同一个 $\\boldsymbol c$。",
    },
    "s2s.intro.problem": {
        "en": "Elegant, and narrow: one vector of fixed size must summarise the whole source "
        "before the decoder has said which part it will need. The encoder may well have "
        "seen everything — the trouble is that the decoder cannot go back and pick what it "
        "needs now. Below, a toy encoder with real numbers; then the fix, attention, which "
        "gives every decoder step its own context.",
        "zh": "很优雅，但接口太窄：在解码器还没说明需要哪一部分之前，一个固定大小的向量就必须概括"
        "整个源句子。编码器未必没看到信息——问题在于解码器没法回头、按此刻的需要去挑选。"
        "下面先用一个带真实数字的玩具编码器演示，再看解决办法：注意力，"
        "它让解码器的每一步都拥有自己的上下文。",
    },
    "s2s.pair": {"en": "Sentence pair", "zh": "句子对"},
    "s2s.pair.mirror": {
        "en": "your sentence → “Mirror” (the same words, reversed)",
        "zh": "你的句子 → “镜像语”（同样的词，倒过来）",
    },
    "s2s.pair.mirror_help": {
        "en": "“Mirror” is a toy language we define: it says everything backwards, so target "
        "word j translates source word n + 1 − j (both counted from 1) and the alignment is an "
        "anti-diagonal.",
        "zh": "“镜像语”是我们定义的一种玩具语言：什么话都倒着说，所以目标词 j 对应源词 n + 1 − j"
        "（都从 1 数起），对齐矩阵是一条反对角线。",
    },
    "s2s.dim": {"en": "State size d", "zh": "状态维数 d"},
    "s2s.sharpness": {"en": "Sharpness β", "zh": "锐度 β"},
    "s2s.sharpness_help": {
        "en": "Multiplies the scores before the softmax: larger β, more peaked weights.",
        "zh": "在 softmax 之前乘到得分上：β 越大，权重越集中。",
    },
    "s2s.empty": {
        "en": "The sentence in the sidebar has no tokens, so “Mirror” has nothing to translate. "
        "Type a few words there or pick one of the fixed pairs; the bottleneck experiment "
        "below works either way.",
        "zh": "侧边栏里的句子没有任何 token，“镜像语”无从翻译。"
        "请在那里输入几个词，或者选一个固定的句子对；下面的瓶颈实验照常可用。",
    },
    "s2s.capped": {
        "en": "Your text has {n} tokens; the encoder reads the first {shown} so the matrices "
        "stay readable.",
        "zh": "你的文本有 {n} 个 token；为了让矩阵看得清，编码器只读前 {shown} 个。",
    },
    "s2s.axis.step": {"en": "decoder step (target word)", "zh": "解码步（目标词）"},
    "s2s.axis.dim": {"en": "dimension", "zh": "维度"},
    "s2s.axis.value": {"en": "value", "zh": "数值"},
    "s2s.axis.target": {"en": "target word (decoder step t)", "zh": "目标词（解码步 t）"},
    "s2s.axis.source": {"en": "source word i", "zh": "源词 i"},
    # --- fixed vs per-step ------------------------------------------------------------------------
    "s2s.fixed.title": {
        "en": "One context for every step vs one context per step",
        "zh": "每一步共用一个上下文，还是每一步各有一个",
    },
    "s2s.fixed.body": {
        "en": "Each row is what the decoder receives while writing that target word. On the "
        "left, the fixed-context model: the final state $\\boldsymbol h_T$, copied to every "
        "row. On the right, attention: a different mixture of all encoder states for each "
        "step.",
        "zh": "每一行是解码器写出该目标词时收到的上下文。左边是固定上下文模型：最后的状态 "
        "$\\boldsymbol h_T$，原样复制到每一行。"
        "右边是注意力：每一步都按不同比例混合全部编码器状态。",
    },
    "s2s.fixed.fixed": {"en": "Fixed context", "zh": "固定上下文"},
    "s2s.fixed.attention": {"en": "Attention: a context per step", "zh": "注意力：每步一个上下文"},
    "s2s.fixed.compare": {
        "en": "Across the {steps} decoder steps the fixed context never changes (every row is "
        "identical), while the attention contexts differ by up to {spread} in some dimension.",
        "zh": "在 {steps} 个解码步里，固定上下文从不改变（每一行都一样）；"
        "而注意力得到的上下文，在某一维上相差可达 {spread}。",
    },
    # --- alignment --------------------------------------------------------------------------------
    "s2s.align.title": {
        "en": "Attention as alignment",
        "zh": "注意力就是对齐",
    },
    "s2s.align.body": {
        "en": "Attention, as Bahdanau and colleagues added it to seq2seq, keeps every encoder "
        "state. At step $t$ the decoder scores each $\\boldsymbol h_i$ against its current need "
        "(they scored with a small network; here a scaled dot product, as the Transformer "
        "does), turns the scores into weights with a softmax, and reads a weighted mixture. "
        "The weights form an **alignment**: which source words each target word draws on. Here "
        "the word order differs, so a good alignment leaves the diagonal.",
        "zh": "Bahdanau 等人为 seq2seq 加上的注意力保留全部编码器状态。在第 $t$ 步，解码器按"
        "自己当前的需要给每个 $\\boldsymbol h_i$ 打分（他们用一个小网络打分；这里用缩放点积，"
        "和 Transformer 一样），用 softmax 把得分变成权重，再读取加权混合的结果。"
        "这些权重构成一张**对齐**表：每个目标词取用了哪些源词。这里两种语言词序不同，"
        "所以好的对齐会偏离对角线。",
    },
    "s2s.align.construction": {
        "en": "A teaching construction, not a trained model: the weights below are random and "
        "nothing is learned. A trained decoder learns its query q_t; here we build it from the "
        "source word or words that target word translates (q_t = tanh(W_x x̄), the state that word "
        "would give on its own), to show the alignment such training aims for. The scores, "
        "softmax and mixture are computed for real.",
        "zh": "这是教学用的构造，不是训练好的模型：下面的权重是随机的，也没有学习任何东西。"
        "训练好的解码器会自己学出查询 q_t；这里我们用该目标词所翻译的源词来构造它"
        "（q_t = tanh(W_x x̄)，即这个词单独输入时会产生的状态），以展示训练所追求的对齐。"
        "打分、softmax 和加权混合都是真实计算的。",
    },
    "s2s.align.hits": {
        "en": "{hits} of {total} target words put their largest weight on the source word they "
        "translate (softmax and weighted sum by the **{backend}** backend, β = {beta}).",
        "zh": "{total} 个目标词中，有 {hits} 个把最大的权重放在了它所翻译的源词上"
        "（softmax 与加权求和由 **{backend}** 后端计算，β = {beta}）。",
    },
    "s2s.align.caveat": {
        "en": "Attention weights show where information was read from; they are not a proof of "
        "what the model “understood”, and a trained model's weights need not match a "
        "linguist's alignment.",
        "zh": "注意力权重显示的是信息从哪里读取，并不能证明模型“理解”了什么；"
        "训练好的模型的权重也不一定与语言学家的对齐相符。",
    },
    # --- the bottleneck ---------------------------------------------------------------------------
    "s2s.neck.title": {
        "en": "The bottleneck, measured: what one vector can still tell",
        "zh": "量一量瓶颈：一个向量还能说出多少",
    },
    "s2s.neck.body": {
        "en": "Random sentences of T words from a {vocab}-word toy vocabulary go through the "
        "same tanh encoder. A linear read-out, fitted on 1,500 sentences and tested on 500 "
        "new ones, tries to name word i. From the single vector $\\boldsymbol h_T$ (what a "
        "fixed-context decoder gets), early words fade towards chance as T grows. From "
        "$\\boldsymbol h_i$ itself (what attention lets the decoder reach) each word stays "
        "readable whatever the length.",
        "zh": "从一个含 {vocab} 个词的玩具词表中随机组成长度为 T 的句子，送进同一个 tanh 编码器。"
        "一个线性读出器在 1500 个句子上拟合，再在 500 个新句子上测试，尝试说出第 i 个词。"
        "只看单个向量 $\\boldsymbol h_T$（固定上下文解码器拿到的东西）时，随着 T 变长，"
        "靠前的词逐渐退化到随机猜测的水平；而直接看 $\\boldsymbol h_i$"
        "（注意力让解码器够得着的东西）时，无论句子多长，每个词都依然读得出来。",
    },
    "s2s.neck.running": {
        "en": "Encoding a few thousand random sentences…",
        "zh": "正在编码几千个随机句子…",
    },
    "s2s.neck.series.first": {
        "en": "word 1, read from h_T",
        "zh": "第 1 个词，从 h_T 读出",
    },
    "s2s.neck.series.mean": {
        "en": "every word (average), read from h_T",
        "zh": "所有词（平均），从 h_T 读出",
    },
    "s2s.neck.series.own": {
        "en": "every word (average), read from its own hᵢ",
        "zh": "所有词（平均），从各自的 hᵢ 读出",
    },
    "s2s.neck.axis_length": {"en": "source length T (words)", "zh": "源句长度 T（词数）"},
    "s2s.neck.axis_accuracy": {"en": "read-back accuracy", "zh": "读出准确率"},
    "s2s.neck.axis_series": {"en": "what is read", "zh": "读取方式"},
    "s2s.neck.chance": {"en": "chance ({chance})", "zh": "随机猜测（{chance}）"},
    "s2s.neck.summary": {
        "en": "With d = {d}: word 1 is recovered from h_T {short} of the time when T = 2, but "
        "only {long} when T = {long_T} (chance: {chance}); averaged over all positions, "
        "{mean}. Read from each word's own state, {own}. Make d larger and the single vector "
        "holds a little more — yet its size is fixed while sentences are not.",
        "zh": "当 d = {d} 时：T = 2 时从 h_T 读出第 1 个词的准确率是 {short}，"
        "T = {long_T} 时只有 {long}（随机猜测为 {chance}）；对所有位置取平均为 {mean}。"
        "若从每个词自己的状态读出，则是 {own}。把 d 调大，单个向量能多记一点——"
        "但它的大小是固定的，句子的长度却不是。",
    },
    "s2s.solved": {
        "en": "variable-length input to variable-length output, and — with attention — a "
        "decoder that reads what it needs at each step.",
        "zh": "变长输入到变长输出；加上注意力之后，解码器每一步都能按需读取信息。",
    },
    "s2s.hurts": {
        "en": "the fixed context is a bottleneck, and even with attention the encoder is still "
        "a recurrence that reads one word at a time.",
        "zh": "固定上下文是一个瓶颈；即使加上注意力，编码器依然是一次只读一个词的循环结构。",
    },
}
