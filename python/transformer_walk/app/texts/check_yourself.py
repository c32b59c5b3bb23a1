"""Words of the Check yourself page (prefix ``chk.``)."""

MESSAGES: dict[str, dict[str, str]] = {
    "check_yourself.title": {"en": "Check yourself", "zh": "自我检验"},
    "check_yourself.intro": {
        "en": "Ten claims people often make about Transformers — eight of them are the common "
        "beliefs the article weighs one by one (seven it corrects, one it calls basically right). "
        "For each, **commit to an answer "
        "first**, then reveal: the verdict comes with a small experiment run right now on the toy "
        "model (or the real tokenizer), so you can see the answer rather than take it on trust.",
        "zh": "下面是关于 Transformer 的十个常见说法，其中八个是文章逐条辨析的常见认识"
        "（七个被纠正，一个被认为基本正确）。"
        "每一题请**先给出你的答案**，再点揭晓：结论会附带一个此刻在玩具模型（或真实分词器）上"
        "现场运行的小实验，让你亲眼看到答案，而不是单纯相信它。",
    },
    "check_yourself.sentence_note": {
        "en": "The experiments use the sidebar's sentence (its first {max_tokens} tokens): "
        "“{text}”.",
        "zh": "实验使用侧边栏中的句子（最多取前 {max_tokens} 个 token）：“{text}”。",
    },
    "check_yourself.default_note": {
        "en": "The sidebar's sentence has fewer than two tokens — order and symmetry need at least "
        "a pair — so the experiments use “{text}” instead.",
        "zh": "侧边栏中的句子不足两个 token——顺序和对称性至少需要两个 token——"
        "所以实验改用“{text}”。",
    },
    "check_yourself.score": {
        "en": "Score: **{right}** right out of **{revealed}** revealed ({total} questions).",
        "zh": "得分：已揭晓 **{revealed}** 题，答对 **{right}** 题（共 {total} 题）。",
    },
    "check_yourself.reset": {"en": "Start over", "zh": "重新开始"},
    "check_yourself.reset_help": {
        "en": "Clears your answers and the score for this session.",
        "zh": "清除本次会话中的所有答案和得分。",
    },
    "check_yourself.pick": {"en": "Your answer", "zh": "你的答案"},
    "check_yourself.reveal": {"en": "Reveal", "zh": "揭晓"},
    "check_yourself.reveal_help": {
        "en": "Pick an answer first: the guess is what makes the answer stick.",
        "zh": "请先选一个答案：先猜一次，答案才记得牢。",
    },
    "check_yourself.opt.yes": {"en": "Yes", "zh": "是"},
    "check_yourself.opt.no": {"en": "No", "zh": "不是"},
    "check_yourself.opt.depends": {"en": "Not necessarily", "zh": "不一定"},
    "check_yourself.right_also": {
        "en": "Right — you said **{guess}**; the article says **{answer}**, and its reasons, "
        "below, leave room for your answer too.",
        "zh": "答对了——你选的是“**{guess}**”；文章的回答是“**{answer}**”，而它给出的理由（见下）"
        "也容得下你的答案。",
    },
    "check_yourself.right": {
        "en": "Right — the answer is **{answer}**.",
        "zh": "答对了——答案是“**{answer}**”。",
    },
    "check_yourself.wrong": {
        "en": "Not quite — you said **{guess}**, the answer is **{answer}**.",
        "zh": "不太对——你选的是“**{guess}**”，答案是“**{answer}**”。",
    },
    "check_yourself.computing": {"en": "Running the experiment…", "zh": "正在运行实验…"},
    "check_yourself.misconception": {
        "en": "Belief {number} of the article",
        "zh": "文章中的认识 {number}",
    },
    "check_yourself.more": {
        "en": "Another claim the article answers",
        "zh": "文章解答过的另一个问题",
    },
    "check_yourself.col.text": {"en": "text", "zh": "文本"},
    "check_yourself.col.words": {"en": "words (split on spaces)", "zh": "单词数（按空格切分）"},
    "check_yourself.col.toy": {"en": "toy model's tokens", "zh": "玩具模型的 token 数"},
    "check_yourself.col.wordpiece": {
        "en": "WordPiece n (MiniLM)",
        "zh": "WordPiece 的 n（MiniLM）",
    },
    "check_yourself.axis.query": {"en": "query i", "zh": "查询 i"},
    "check_yourself.axis.key": {"en": "key j", "zh": "键 j"},
    "check_yourself.axis.seed": {"en": "seed", "zh": "随机种子"},
    "check_yourself.axis.head": {"en": "head", "zh": "注意力头"},
    # --- 1. n ----------------------------------------------------------------------------------
    "check_yourself.n_tokens.q": {
        "en": "“A sentence of 10 words has n = 10.”",
        "zh": "“一句话有 10 个单词，所以 n = 10。”",
    },
    "check_yourself.n_tokens.why": {
        "en": "$n$ is the number of **tokens** the tokenizer produces, not the number of words a "
        "reader counts. A rare word may be cut into several sub-word pieces, punctuation is a "
        "token of its own, and BERT-style models add [CLS] and [SEP]. Only when the tokenizer "
        "happens to give 10 tokens is $n = 10$.",
        "zh": "$n$ 是分词器产生的 **token 个数**，而不是读者数出来的单词数。一个罕见词可能被切成"
        "好几个子词，标点自成一个 token，BERT 一类的模型还会加上 [CLS] 和 [SEP]。"
        "只有分词器恰好产生 10 个 token 时，才有 $n = 10$。",
    },
    "check_yourself.n_tokens.result": {
        "en": "*{text}* has {words} words, but MiniLM's WordPiece turns it into n = {n} tokens: "
        "`{pieces}`.",
        "zh": "*{text}* 有 {words} 个单词，但 MiniLM 的 WordPiece 把它变成了 n = {n} 个 token："
        "`{pieces}`。",
    },
    "check_yourself.n_tokens.no_tokenizer": {
        "en": "MiniLM's tokenizer is not installed here ({reason}), so only the toy model's "
        "word-level count is shown.",
        "zh": "这里没有安装 MiniLM 的分词器（{reason}），因此只显示玩具模型按词切分的计数。",
    },
    # --- 2. 512 --------------------------------------------------------------------------------
    "check_yourself.d_model.q": {
        "en": "“512 in the original Transformer means it reads at most 512 words.”",
        "zh": "“原始 Transformer 里的 512 表示最多输入 512 个词。”",
    },
    "check_yourself.d_model.why": {
        "en": "512 is $d_{\\text{model}}$, the width of **each** token's vector. The number of "
        "tokens $n$ is a separate axis: ${X \\in \\mathbb{R}^{n \\times d_{\\text{model}}}}$. "
        "Nothing in the attention formula fixes $n$ — a limit on length, where a model has one, "
        "comes from elsewhere (a learned position table of fixed size, memory that grows as "
        "$n^2$, the length used in training).",
        "zh": "512 是 $d_{\\text{model}}$，即**每个** token 向量的宽度。token 的个数 $n$ 是另一条"
        "独立的轴：${X \\in \\mathbb{R}^{n \\times d_{\\text{model}}}}$。"
        "注意力公式本身并不限定 $n$——"
        "如果某个模型有长度上限，那来自别处（固定大小的可学习位置表、随 $n^2$ 增长的内存、"
        "训练时使用的长度）。",
    },
    "check_yourself.d_model.result": {
        "en": "One toy block with d_model = {d_model} and h = {h} (random weights, sinusoidal "
        "positions) ran on generated inputs of {lengths} tokens. Both went through, the longer "
        "one well past 512 tokens.",
        "zh": "一个 d_model = {d_model}、h = {h} 的玩具 Transformer 块（随机权重、正弦位置编码）"
        "在生成的 {lengths} 个 token 的输入上运行，两次都顺利完成，较长的那次远超 512 个 token。",
    },
    "check_yourself.col.n": {"en": "n (tokens)", "zh": "n（token 数）"},
    "check_yourself.col.x": {"en": "X shape", "zh": "X 的形状"},
    "check_yourself.col.weights": {"en": "attention weights shape", "zh": "注意力权重的形状"},
    "check_yourself.col.out": {"en": "output shape", "zh": "输出的形状"},
    "check_yourself.col.row_sum": {"en": "max |Σⱼ αᵢⱼ − 1|", "zh": "行和误差 max |Σⱼ αᵢⱼ − 1|"},
    # --- 3. fixed ------------------------------------------------------------------------------
    "check_yourself.fixed.q": {
        "en": "“Once the model is trained, Q, K and V are fixed.”",
        "zh": "“模型训练好以后，Q、K、V 就是固定的。”",
    },
    "check_yourself.fixed.why": {
        "en": "Tell the matrices apart. $W^Q, W^K, W^V$ are **parameters**: learned, then usually "
        "frozen for inference. $Q = XW^Q$, $K = XW^K$, $V = XW^V$ are **activations**: computed "
        "afresh from every input, so the same word gets a different query in a different "
        "sentence.",
        "zh": "要分清两类矩阵。$W^Q, W^K, W^V$ 是**参数**：训练得到，推理时通常固定不变。"
        "$Q = XW^Q$、$K = XW^K$、$V = XW^V$ 是**激活值**：每来一个输入都重新计算，"
        "所以同一个词放进不同的句子，会得到不同的查询向量。",
    },
    "check_yourself.fixed.result": {
        "en": "A two-block toy model read *{first}* and *{second}*. Both start with “{token}”. "
        "In the second block, $W^Q$ differed between the runs by {w_q} (the same parameters), "
        "while the query of “{token}” differed by up to {q}: its input there already carries "
        "the rest of the sentence.",
        "zh": "一个两层的玩具模型分别读入 *{first}* 和 *{second}*，两句都以“{token}”开头。"
        "在第二个块里，两次运行的 $W^Q$ 相差 {w_q}（同一组参数），而“{token}”的查询向量"
        "最多相差 {q}：那一层的输入已经带上了句子其余部分的信息。",
    },
    # --- 4. dot product ------------------------------------------------------------------------
    "check_yourself.dot.q": {
        "en": "“The dot product of a query and a key measures how related two words are in "
        "meaning, by nature.”",
        "zh": "“查询和键的点积天然就表示两个词在语义上的关系。”",
    },
    "check_yourself.dot.why": {
        "en": "A dot product is just a way to score a match. What it rewards depends entirely on "
        "the spaces $W^Q$ and $W^K$ project into — and those get their linguistic usefulness "
        "from training, not from the dot product.",
        "zh": "点积只是一个打分用的数学匹配函数。它偏爱什么，完全取决于 $W^Q$ 和 $W^K$ 把向量"
        "投影到怎样的空间——而这些空间的语言学意义来自训练，而不是来自点积本身。",
    },
    "check_yourself.dot.result": {
        "en": "The same dot product, twice, for the query “{query}”: on the block's input as it "
        "is, it favours **{raw_top}**; after the toy model's (random) $W^Q$ and $W^K$, it "
        "favours **{projected_top}**.",
        "zh": "对查询“{query}”做两次同样的点积：直接用块的输入时，它最偏向 **{raw_top}**；"
        "经过玩具模型（随机的）$W^Q$ 和 $W^K$ 投影后，它最偏向 **{projected_top}**。",
    },
    "check_yourself.truth.seed": {"en": "{top} (seed {seed})", "zh": "{top}（种子 {seed}）"},
    "check_yourself.dot.raw": {"en": "xᵢ · xⱼ (no projection)", "zh": "xᵢ · xⱼ（不投影）"},
    "check_yourself.dot.projected": {"en": "qᵢ · kⱼ (projected)", "zh": "qᵢ · kⱼ（投影后）"},
    # --- 5. values -----------------------------------------------------------------------------
    "check_yourself.values.q": {
        "en": "“The values V decide the attention weights.”",
        "zh": "“注意力权重由 Value（V）决定。”",
    },
    "check_yourself.values.why": {
        "en": "In scaled dot-product attention the weights come from $Q$ and $K$ alone: "
        "$A = \\operatorname{softmax}(QK^{\\mathsf T}/\\sqrt{d_k})$. $V$ only enters afterwards, "
        "in $AV$: it decides **what** is handed over, not **how much**.",
        "zh": "在缩放点积注意力中，权重只由 $Q$ 和 $K$ 决定："
        "$A = \\operatorname{softmax}(QK^{\\mathsf T}/\\sqrt{d_k})$。$V$ 在之后的 $AV$ 中才出场："
        "它决定交出**什么**，而不决定交出**多少**。",
    },
    "check_yourself.values.result": {
        "en": "The toy block ran twice, the second time with $W^V$ replaced by a fresh random "
        "matrix (so every value vector changed). Largest change of any attention weight: "
        "**{weights}**. Largest change of the heads' output: **{output}**.",
        "zh": "玩具 Transformer 块运行了两次，第二次把 $W^V$ 换成一个新的随机矩阵"
        "（于是每个值向量都变了）。注意力权重的最大变化：**{weights}**；各个头输出的最大变化：**{output}**。",
    },
    "check_yourself.values.before": {
        "en": "Head 1 weights, original $W^V$",
        "zh": "头 1 的权重，原来的 $W^V$",
    },
    "check_yourself.values.after": {
        "en": "Head 1 weights, new $W^V$",
        "zh": "头 1 的权重，新的 $W^V$",
    },
    # --- 6. heads ------------------------------------------------------------------------------
    "check_yourself.heads.q": {
        "en": "“Multi-head attention is several sets of Q, K and V.”",
        "zh": "“多头注意力就是多组 Q、K、V。”",
    },
    "check_yourself.heads.why": {
        "en": "Essentially yes. Stated precisely: each head has its **own learned** projections "
        "$W_i^Q, W_i^K, W_i^V$ (in practice, its own block of $d_k$ columns of one big "
        "$W^Q$), so each head computes attention in its own subspace, and $W^O$ mixes the "
        "results.",
        "zh": "基本正确。更严格地说：每个头都有**自己可学习的**投影 $W_i^Q, W_i^K, W_i^V$"
        "（实现上就是一个大 $W^Q$ 中属于它的那 $d_k$ 列），因此每个头在自己的子空间里计算"
        "注意力，最后由 $W^O$ 把结果混合起来。",
    },
    "check_yourself.heads.result": {
        "en": "The toy model with d_model = 8 split into h = {h} heads of d_k = {d_k}: the heads' "
        "column blocks of $W^Q$ are {differ}, and the query “{query}” spreads its weight "
        "differently in each head.",
        "zh": "把 d_model = 8 的玩具模型分成 h = {h} 个头，每个头 d_k = {d_k}：各个头在 $W^Q$ 中的"
        "列块{differ}，查询“{query}”在每个头里分配权重的方式也各不相同。",
    },
    "check_yourself.heads.differ": {"en": "all different matrices", "zh": "互不相同"},
    "check_yourself.heads.same": {"en": "not all different", "zh": "并不全都不同"},
    # --- 7. truth ------------------------------------------------------------------------------
    "check_yourself.truth.q": {
        "en": "“An attention weight tells you the true relationship between two words.”",
        "zh": "“注意力权重就是两个词之间真实的语言关系。”",
    },
    "check_yourself.truth.why": {
        "en": "An attention weight is a routing coefficient inside one model: how much of one "
        "position's value flows into another's update. It may correlate with coreference, "
        "syntax or importance, but it is not a label of any of them — another model, another "
        "head, even another random initialisation routes differently.",
        "zh": "注意力权重是某个模型内部的信息路由系数：一个位置的值有多少流入另一个位置的更新。"
        "它可能与指代、句法或重要性相关，但并不是这些关系的标注——换一个模型、换一个头，"
        "甚至只换一次随机初始化，路由方式都会不同。",
    },
    "check_yourself.truth.result": {
        "en": "The same sentence through {models} toy models that differ only in their random "
        "seed. The query “{query}” puts most weight on: {tops}. Every row still sums to 1 — "
        "each model is equally sure of a different “relation”.",
        "zh": "同一句话送进 {models} 个只有随机种子不同的玩具模型。查询“{query}”权重最大的 token "
        "分别是：{tops}。每一行的和依然是 1——每个模型都同样“确信”一种不同的“关系”。",
    },
    # --- 8. sequential -------------------------------------------------------------------------
    "check_yourself.seq.q": {
        "en": "“A Transformer does nothing sequentially.”",
        "zh": "“Transformer 完全没有顺序计算。”",
    },
    "check_yourself.seq.why": {
        "en": "In training, every position of a sequence is processed at once: with a causal "
        "mask, one pass gives each position's output. But a decoder that **generates** text "
        "models $P(x_t \\mid x_1, \\ldots, x_{t-1})$: token $t$ must exist before token $t+1$ "
        "can be predicted, so generation still goes one token at a time.",
        "zh": "训练时，一个序列的所有位置可以同时处理：加上因果遮罩，一次前向计算就得到每个位置的"
        "输出。但**生成**文本的解码器建模的是 $P(x_t \\mid x_1, \\ldots, x_{t-1})$："
        "必须先有第 $t$ 个 token，才能预测第 $t+1$ 个，所以生成仍然是逐个 token 进行的。",
    },
    "check_yourself.seq.result": {
        "en": "A causal toy model read the {n} tokens in **{parallel}** pass; then, as generation "
        "would, it was run on every prefix, one more token each time — **{sequential}** "
        "passes, each needing the previous token. The last position of every prefix matches the "
        "single pass to within {gap}.",
        "zh": "一个带因果遮罩的玩具模型用 **{parallel}** 次前向计算读完全部 {n} 个 token；"
        "再像生成时那样，对每个前缀逐次多加一个 token 运行——共 **{sequential}** 次，"
        "每次都要依赖上一个 token。每个前缀最后一个位置的输出与那一次整体计算相差不超过 {gap}。",
    },
    "check_yourself.seq.real_title": {
        "en": "**The real decoder's clock.** SmolLM2 reads the sentence's first tokens in one "
        "pass, then writes as many new ones, one at a time:",
        "zh": "**真实解码器的计时。** SmolLM2 先用一次前向计算读完句子的前几个 token，再逐个写出"
        "同样多的新 token：",
    },
    "check_yourself.seq.real_running": {
        "en": "Timing SmolLM2's prefill and generation…",
        "zh": "正在为 SmolLM2 的预填充和生成计时…",
    },
    "check_yourself.seq.real_prefill": {
        "en": "Reading {n} {n:token|tokens} at once",
        "zh": "一次读入 {n} 个 token",
    },
    "check_yourself.seq.real_decode": {
        "en": "Writing {n} {n:token|tokens} one by one",
        "zh": "逐个写出 {n} 个 token",
    },
    "check_yourself.seq.real_slower": {
        "en": "The same number of tokens took **{ratio}×** as long to write as to read "
        "(**{backend}** backend): each new token waits for the one before it, and every "
        "step rereads all the weights for a single position.",
        "zh": "同样多的 token，写出所用的时间是读入的 **{ratio} 倍**（**{backend}** 后端）："
        "每个新 token 都要等上一个生成完，而且每一步都要为单个位置把全部权重重新读一遍。",
    },
    "check_yourself.seq.real_not_slower": {
        "en": "Here writing took {ratio}× the reading time (**{backend}** backend): with so few "
        "tokens the pass over the weights dominates both — but the {n} writing steps still had "
        "to run one after another.",
        "zh": "这里写出用时是读入的 {ratio} 倍（**{backend}** 后端）：token 这么少时，两者的时间"
        "都主要花在读权重上——但写出的 {n} 步仍然必须一步接一步地执行。",
    },
    # --- 9. symmetry ---------------------------------------------------------------------------
    "check_yourself.sym.q": {
        "en": "“Attention weights are symmetric: $\\alpha_{ij} = \\alpha_{ji}$.”",
        "zh": "“注意力权重是对称的：$\\alpha_{ij} = \\alpha_{ji}$。”",
    },
    "check_yourself.sym.why": {
        "en": "$\\alpha_{ij}$ answers “how much does $i$ take from $j$ when it updates "
        "itself?”, and "
        "$\\alpha_{ji}$ the reverse — two different questions. The scores $q_i \\cdot k_j$ use "
        "different matrices $W^Q \\neq W^K$, and each row is normalised on its own, so the "
        "matrix is in general not symmetric.",
        "zh": "$\\alpha_{ij}$ 回答的是“$i$ 更新自己时从 $j$ 取多少信息”，$\\alpha_{ji}$ 则反过来——"
        "这是两个不同的问题。分数 $q_i \\cdot k_j$ 用的是不同的矩阵 $W^Q \\neq W^K$，"
        "而且每一行单独归一化，所以这个矩阵一般不对称。",
    },
    "check_yourself.sym.result": {
        "en": "In head 1 of the toy block: a(“{i}” → “{j}”) = **{a_ij}**, but a(“{j}” → “{i}”) "
        "= **{a_ji}**. The largest |aᵢⱼ − aⱼᵢ| in the matrix is {max}.",
        "zh": "在玩具 Transformer 块的头 1 中：a(“{i}” → “{j}”) = **{a_ij}**，"
        "而 a(“{j}” → “{i}”) = **{a_ji}**。矩阵中最大的 |aᵢⱼ − aⱼᵢ| 是 {max}。",
    },
    "check_yourself.sym.single": {
        "en": "All tokens are the same word, so this sentence cannot show an asymmetry — try one "
        "with different words.",
        "zh": "这句话的所有 token 都是同一个词，无法体现不对称——换一句由不同词组成的句子试试。",
    },
    # --- 10. order -----------------------------------------------------------------------------
    "check_yourself.order.q": {
        "en": "“Self-attention on its own knows the order of the words.”",
        "zh": "“自注意力本身就知道词的顺序。”",
    },
    "check_yourself.order.why": {
        "en": "Without positions, self-attention is **permutation-equivariant**: shuffle the "
        "input tokens and the outputs are the same rows, shuffled the same way. Nothing tells "
        "*Tom loves his dog* from *dog his loves Tom*. That is why positional encodings are "
        "added to the embeddings.",
        "zh": "没有位置信息时，自注意力具有**置换等变性**：把输入 token 打乱，输出还是原来那些行，"
        "只是按同样的方式打乱了顺序。它分不清 *Tom loves his dog* 和 *dog his loves Tom*。"
        "这正是要在词向量上加入位置编码的原因。",
    },
    "check_yourself.order.result": {
        "en": "The toy model read *{original}* and its reversal *{shuffled}*. Without positions, "
        "the reversed outputs equal the original outputs reversed, to within **{without}**. With "
        "sinusoidal positions they differ by up to **{with_pe}**.",
        "zh": "玩具模型分别读入 *{original}* 和倒序后的 *{shuffled}*。不加位置编码时，倒序句子的"
        "输出与原句输出倒序后相差不超过 **{without}**；加上正弦位置编码后，最多相差 "
        "**{with_pe}**。",
    },
    # --- end -----------------------------------------------------------------------------------
    "check_yourself.solved": {
        "en": "Every claim on this page comes with a check computed live from the models, not "
        "just a definition: reveal a card to see its numbers.",
        "zh": "本页每个说法都配有一项用模型现场计算的检验，而不只是对照定义："
        "揭晓一张卡片就能看到它的数字。",
    },
    "check_yourself.hurts": {
        "en": "The toy model is untrained: it can show what the equations force, never what "
        "training teaches a real model.",
        "zh": "玩具模型没有经过训练：它能展示公式必然带来的结果，"
        "却展示不了训练让真实模型学会了什么。",
    },
    # --- words inside formulas (through views.latex.tex_words) ---
    "check_yourself.tex.tokens": {"en": "tokens", "zh": "token"},
    "check_yourself.tex.words": {"en": "words", "zh": "词"},
    "check_yourself.tex.vs": {"en": "vs", "zh": "对比"},
    "check_yourself.tex.no_v": {"en": "(no V)", "zh": "（不乘 V）"},
    "check_yourself.tex.no_pe": {"en": "(no PE)", "zh": "（无 PE）"},
    "check_yourself.tex.with_pe": {"en": "(+PE)", "zh": "（加 PE）"},
}
