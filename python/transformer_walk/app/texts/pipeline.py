"""Words of the Whole pipeline page (prefix ``pipe.``)."""

MESSAGES: dict[str, dict[str, str]] = {
    "pipeline.title": {"en": "The whole pipeline", "zh": "完整流水线"},
    "pipeline.intro": {
        "en": "Every stop of the road, in the order the model runs them, for the sentence in the "
        "sidebar. Each box carries the shape its array has right now — change the sentence and "
        "watch $n$ change everywhere at once — and any box can be opened on the right to see "
        "its numbers. All of it is one run of the toy Transformer; nothing is recomputed here.",
        "zh": "这里按模型实际执行的顺序，把整条路上的每一站串起来，用的是侧边栏里的句子。每个方框"
        "都标着它的数组此刻的形状——改一下句子，$n$ 会在所有地方同时变化——右侧可以打开任意一个方框，"
        "查看其中的数字。这些全部来自玩具 Transformer 的同一次运行，本页不做任何重复计算。",
    },
    "pipeline.layers": {"en": "Blocks stacked (L)", "zh": "堆叠的块数（L）"},
    "pipeline.block": {"en": "Block shown inside the box", "zh": "方框中展开的块"},
    "pipeline.diagram.title": {
        "en": "From text to contextual vectors",
        "zh": "从文本到上下文化向量",
    },
    "pipeline.diagram.caption": {
        "en": "Live sizes: n = {n} {n:token|tokens}, V = {V} vocabulary entries, "
        "d_model = {d_model}, h = {h} {h:head|heads} of d_k = {d_k}, d_ff = {d_ff}, "
        "L = {L} {L:block|blocks}.",
        "zh": "当前尺寸：n = {n} 个 token，词表大小 V = {V}，d_model = {d_model}，h = {h} 个头、"
        "每个 d_k = {d_k}，d_ff = {d_ff}，L = {L} 个块。",
    },
    "pipeline.open.title": {"en": "Open a stop", "zh": "打开一站"},
    "pipeline.open": {"en": "Stop", "zh": "站点"},
    "pipeline.stage_of": {"en": "Stage: {stage}", "zh": "所属阶段：{stage}"},
    "pipeline.shape": {"en": "Shape: `{shape}`", "zh": "形状：`{shape}`"},
    "pipeline.head": {"en": "Head", "zh": "注意力头"},
    "pipeline.row": {"en": "row", "zh": "行"},
    "pipeline.one_hot_note": {
        "en": "Only the {used} {used:column|columns} that hold a 1 {used:is|are} drawn; the other "
        "{V} − {used} columns of each row are all zeros.",
        "zh": "图中只画出含有 1 的 {used} 列；每一行其余的 {V} − {used} 列全是 0。",
    },
    "pipeline.window": {
        "en": "The heatmap shows the first {rows} rows and {cols} columns; the table below has "
        "them all.",
        "zh": "热力图只显示前 {rows} 行、前 {cols} 列；下方的表格包含全部数字。",
    },
    "pipeline.axis.row": {"en": "token (row)", "zh": "token（行）"},
    "pipeline.axis.col": {"en": "column", "zh": "列"},
    "pipeline.axis.value": {"en": "value", "zh": "数值"},
    "pipeline.col.position": {"en": "position", "zh": "位置"},
    "pipeline.col.token": {"en": "token", "zh": "token"},
    "pipeline.all_numbers": {"en": "All the numbers", "zh": "全部数字"},
    "pipeline.rows_sum": {
        "en": "Each row of A is a softmax, so it sums to 1 (mean row sum here: {total}).",
        "zh": "A 的每一行都是 softmax 的结果，所以和为 1（此处各行之和的平均值：{total}）。",
    },
    "pipeline.node.text": {"en": "raw text", "zh": "原始文本"},
    "pipeline.node.tokens": {"en": "tokens", "zh": "token 序列"},
    "pipeline.node.ids": {"en": "token ids", "zh": "token 编号（id）"},
    "pipeline.node.one_hot": {"en": "one-hot", "zh": "one-hot 向量"},
    "pipeline.node.embeddings": {"en": "embeddings (one-hot · E)", "zh": "词向量（one-hot · E）"},
    "pipeline.node.positions": {"en": "+ positional encoding", "zh": "+ 位置编码"},
    "pipeline.node.qkv": {"en": "Q / K / V projections", "zh": "Q / K / V 投影"},
    "pipeline.node.heads": {"en": "split into h heads", "zh": "拆成 h 个头"},
    "pipeline.node.weights": {"en": "weights softmax(QKᵀ/√d_k)", "zh": "权重 softmax(QKᵀ/√d_k)"},
    "pipeline.node.head_out": {"en": "A · V per head", "zh": "每个头的 A · V"},
    "pipeline.node.concat": {"en": "concat heads", "zh": "拼接各头"},
    "pipeline.node.w_o": {"en": "· Wᴼ", "zh": "乘以 Wᴼ"},
    "pipeline.node.norm1": {"en": "residual + LayerNorm", "zh": "残差 + LayerNorm"},
    "pipeline.node.ffn": {"en": "FFN hidden max(0, xW₁+b₁)", "zh": "FFN 隐藏层 max(0, xW₁+b₁)"},
    "pipeline.node.norm2": {
        "en": "FFN out, residual + LayerNorm",
        "zh": "FFN 输出、残差 + LayerNorm",
    },
    "pipeline.node.output": {"en": "contextual output", "zh": "上下文化输出"},
    "pipeline.node.block": {"en": "Transformer block", "zh": "Transformer 块"},
    "pipeline.stage.representation": {"en": "Representation", "zh": "表示"},
    "pipeline.stage.interaction": {"en": "Interaction", "zh": "交互"},
    "pipeline.stage.aggregation": {"en": "Aggregation", "zh": "聚合"},
    "pipeline.stage.token": {
        "en": "Per token (no mixing between positions)",
        "zh": "逐 token 处理（位置之间不交换信息）",
    },
    "pipeline.framing.title": {
        "en": "Representation → Interaction → Aggregation",
        "zh": "表示 → 交互 → 聚合",
    },
    "pipeline.framing.body": {
        "en": "Strip away the bookkeeping and a layer of self-attention does three things. "
        "**Representation:** every token is turned, by itself, into vectors — the embedding row "
        "plus its position, then the query, key and value it will use. **Interaction:** each "
        "query is scored against every key and the scores become a distribution with softmax; "
        "this is the only place where one position looks at another. **Aggregation:** each token "
        'collects the values in proportion to those weights. So "attention finds relations '
        'between words" is only the first half: it measures how well positions match *in the '
        "current representation space*, normalises, and then routes and mixes information. "
        "The residual connections, LayerNorm and the FFN that follow work on each row alone — "
        "grey in the diagram.",
        "zh": "去掉细枝末节，一层自注意力只做三件事。**表示：** 每个 token 各自变成向量——"
        "词向量行加上位置信息，再得到它要用的查询、键和值。**交互：** 每个查询和所有键打分，"
        "softmax 把分数变成"
        "一个分布；这是唯一一个让某个位置“看到”其他位置的环节。**聚合：** 每个 token 按这些权重"
        "把各位置的值收集起来。所以“注意力就是找词与词之间的关系”只说对了一半：它在*当前的表示"
        "空间里*衡量各位置之间的匹配程度，归一化之后，再据此传递、混合信息。后面的残差连接、"
        "LayerNorm 和 FFN 都只对每一行单独计算——图中用灰色表示。",
    },
    "pipeline.framing.qkv": {
        "en": "In one line each: $Q K^{\\mathsf T}$ decides **whom** to look at, the softmax "
        "decides **how much**, and $A V$ decides **what** is taken. The query is the criterion "
        "a position searches with, the key the features it is matched by, the value what it can "
        "actually hand over.",
        "zh": "各用一句话概括：$Q K^{\\mathsf T}$ 决定**找谁**，softmax 决定**找多少**，$A V$ "
        "决定**拿什么**。查询是一个位置检索时使用的标准，键是它被匹配时呈现的特征，值是它真正能"
        "交给别人的内容。",
    },
    "pipeline.framing.caveat": {
        "en": "Two cautions. The weights are what this (random, untrained) toy computes, not "
        "linguistic truth — even in trained models a weight is not an explanation. And n counts "
        "tokens, not words: this toy tokenizer splits at spaces, splits punctuation off (an "
        "apostrophe inside a word stays: didn't is one token) and cuts Chinese into single "
        "characters, and a real one often splits words too.",
        "zh": "两点提醒：这些权重只是这个（随机初始化、未经训练的）玩具模型算出来的，并不代表语言学"
        "上的真相——即使在训练好的模型里，权重也不等于解释。另外 n 数的是 token 而不是单词：这里的"
        "玩具分词器按空格切分、把标点单独切出（词内的撇号保留：didn't 是一个 token），"
        "并把中文切成单个汉字；真实的分词器还常常会把一个词切成几段。",
    },
    "pipeline.solved": {
        "en": "One chain turns any text into contextual vectors, every position able to reach "
        "every other in a single layer.",
        "zh": "一条链把任意文本变成上下文化向量，而且每个位置在一层之内就能直接触及任何其他位置。",
    },
    "pipeline.hurts": {
        "en": "The weights box is n × n per head: its cost grows with the square of the length.",
        "zh": "权重那一站每个头都是 n × n：它的代价随长度的平方增长。",
    },
    # --- words inside formulas (through views.latex.tex_words) ---
    "pipeline.tex.representation": {"en": "Representation", "zh": "表示"},
    "pipeline.tex.interaction": {"en": "Interaction", "zh": "交互"},
    "pipeline.tex.aggregation": {"en": "Aggregation", "zh": "聚合"},
    "pipeline.text_size": {"en": "{n} {n:character|characters}", "zh": "{n} 个字符"},
}
