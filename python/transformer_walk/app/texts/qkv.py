"""Words of the Q, K, V page (prefix ``qkv.``); “From word vectors to Transformer” §11–14."""

MESSAGES: dict[str, dict[str, str]] = {
    "qkv.title": {
        "en": "Q, K, V: three views of every token",
        "zh": "Q、K、V：每个 token 的三种视角",
    },
    "qkv.intro": {
        "en": "Attention needs two different things from every token: something to decide *how "
        "much* to take from it, and the thing that is actually taken. The Transformer gets them "
        "by projecting each token's vector three times, with three learned matrices, into a "
        "**query**, a **key** and a **value**. A search engine is a helpful picture:",
        "zh": "注意力需要从每个 token 那里得到两样不同的东西：一样用来决定从它那里拿*多少*，"
        "另一样是真正被拿走的内容。Transformer 的做法是用三个学到的矩阵，把每个 token 的向量"
        "分别投影三次，得到**查询**（query）、**键**（key）和**值**（value）。"
        "可以借检索系统来想象：",
    },
    "qkv.analogy.col.vector": {"en": "vector", "zh": "向量"},
    # The three vectors' names, for the tables of this page and of Attention by hand.
    "qkv.name.q": {"en": "Query  q", "zh": "查询  q"},
    "qkv.name.k": {"en": "Key  k", "zh": "键  k"},
    "qkv.name.v": {"en": "Value  v", "zh": "值  v"},
    "qkv.analogy.col.role": {"en": "role in the picture", "zh": "在这个比喻中的角色"},
    "qkv.analogy.q": {
        "en": "the request a token sends out: what it is looking for",
        "zh": "token 发出的请求：它在找什么",
    },
    "qkv.analogy.k": {
        "en": "the label a token shows to requests: how it can be found",
        "zh": "token 向请求展示的标签：别人凭什么能找到它",
    },
    "qkv.analogy.v": {
        "en": "the content a token hands over when it is picked",
        "zh": "token 被选中时交出去的内容",
    },
    "qkv.analogy.caveat": {
        "en": "**Only a picture.** Nobody tells the model that queries are “questions” or that "
        "keys are “labels”. Q, K and V are three representation spaces that training shapes "
        "for whatever the task rewards; they carry no fixed grammatical or semantic role.",
        "zh": "**这只是个比喻。** 没有人告诉模型查询是“问题”、键是“标签”。Q、K、V "
        "是训练按任务需要塑造出来的三个表示空间，并不承担固定的语法或语义角色。",
    },
    "qkv.d_help": {
        "en": "Width of every token vector in the toy model. 512 in the original Transformer "
        "— a chosen size, not a limit on the sentence's length.",
        "zh": "玩具模型中每个 token 向量的宽度。原始 Transformer 里是 512——"
        "这是选定的维度，而不是句子长度的上限。",
    },
    "qkv.h": {"en": "heads h", "zh": "头数 h"},
    "qkv.h_help": {
        "en": "Each head uses its own d_k = d_model / h columns of $W^Q$, $W^K$ and $W^V$.",
        "zh": "每个头使用 $W^Q$、$W^K$、$W^V$ 中属于自己的 d_k = d_model / h 列。",
    },
    "qkv.seed": {"en": "weight seed", "zh": "权重随机种子"},
    "qkv.seed_help": {
        "en": "The toy weights are random, not trained; another seed draws other weights.",
        "zh": "玩具模型的权重是随机生成的，没有训练过；换一个种子就会得到另一组权重。",
    },
    "qkv.col.dim": {"en": "dimension", "zh": "维度"},
    "qkv.first_rows": {
        "en": "Showing the first {shown} of {n} token rows.",
        "zh": "只显示 {n} 个 token 行中的前 {shown} 行。",
    },
    "qkv.row.token": {"en": "token", "zh": "token"},
    "qkv.legend.weight": {"en": "weight", "zh": "权重"},
    "qkv.row.input_dim": {"en": "input dimension", "zh": "输入维度"},
    "qkv.axis.dim_i": {"en": "dimension of xᵢ", "zh": "xᵢ 的维度"},
    "qkv.axis.dim_j": {"en": "dimension of xⱼ", "zh": "xⱼ 的维度"},
    # --- projections ----------------------------------------------------------------------------
    "qkv.proj.title": {"en": "Where Q, K and V come from", "zh": "Q、K、V 从何而来"},
    "qkv.proj.body": {
        "en": "Stack the sentence's token vectors as rows of X. Three weight matrices, the same "
        "for every token and every sentence, turn X into three new matrices. Row i of Q, K and "
        "V is token i's query, key and value.",
        "zh": "把句子中各个 token 的向量按行堆成 X。三个权重矩阵对所有 token、所有句子都一样，"
        "它们把 X 变成三个新矩阵。Q、K、V 的第 i 行就是第 i 个 token 的查询、键和值。",
    },
    "qkv.proj.heads": {
        "en": "With h = {h} {h:head|heads}, head number r uses columns (r − 1)·{d_k} + 1 … r·{d_k} "
        "of each ${{{d} \\times {d}}}$ matrix: $W^Q = [W_1^Q \\cdots W_h^Q]$, h slices "
        "${{W_r^Q \\in \\mathbb{{R}}^{{d_{{model}}\\times d_k}}}}$ of width $d_k$ = {d_k} side by "
        "side (r counts heads, as i counts tokens), not extra weights.",
        "zh": "有 h = {h} 个头时，第 r 个头使用每个 ${{{d} \\times {d}}}$ 矩阵的"
        "第 (r − 1)·{d_k} + 1 到 r·{d_k} 列：$W^Q = [W_1^Q \\cdots W_h^Q]$，"
        "h 个宽度为 $d_k$ = {d_k} 的切片 "
        "${{W_r^Q \\in \\mathbb{{R}}^{{d_{{model}}\\times d_k}}}}$ 并排放着（r 数的是头，i 数的是 "
        "token），而不是额外的权重。",
    },
    "qkv.proj.x": {
        "en": "**X** · {n}\u00a0×\u00a0{d}: each token's embedding plus its position "
        "(the block's input).",
        "zh": "**X** · {n}\u00a0×\u00a0{d}：每个 token 的词向量加上它的位置编码"
        "（即这个块的输入）。",
    },
    # --- q · k ----------------------------------------------------------------------------------
    "qkv.pair.title": {
        "en": "Why q · k measures relevance",
        "zh": "为什么 q · k 能衡量相关性",
    },
    "qkv.pair.body": {
        "en": "The score of token i for token j is the dot product of i's query with j's key. "
        "Write both projections out and, for head r, the score becomes a bilinear form: the "
        "two token vectors with one learned matrix, $W_r^Q (W_r^K)^\\top$, between them. "
        "Pick a pair and a head and check that both routes give the same number:",
        "zh": "token i 对 token j 的打分，是 i 的查询与 j 的键的点积。把两次投影展开，"
        "对第 r 个头，这个分数就成了一个双线性形式：两个 token 向量中间夹着一个学到的矩阵 "
        "$W_r^Q (W_r^K)^\\top$。选一对 token 和一个头，验证两条路径得到的是同一个数：",
    },
    "qkv.head": {"en": "head {number}", "zh": "第 {number} 个头"},
    "qkv.pair.i": {"en": "query token i", "zh": "查询 token i"},
    "qkv.pair.j": {"en": "key token j", "zh": "键 token j"},
    "qkv.pair.head": {"en": "head", "zh": "头"},
    "qkv.pair.dot": {
        "en": "$q_i^{(r)} \\cdot k_j^{(r)}$ (from the trace)",
        "zh": "$q_i^{(r)} \\cdot k_j^{(r)}$（模型记录的值）",
    },
    "qkv.pair.bilinear": {
        "en": "$x_i W_r^Q (W_r^K)^\\top x_j^\\top$ (from X and the weights)",
        "zh": "$x_i W_r^Q (W_r^K)^\\top x_j^\\top$（由 X 和权重直接算）",
    },
    "qkv.pair.diff": {"en": "difference", "zh": "差值"},
    "qkv.pair.same": {
        "en": "**One number, two routes.** “{i}” scores “{j}” at {dot} with the model's "
        "$q_i \\cdot k_j$ and at {bilinear} through the bilinear form; they differ by {diff}, "
        "which is floating-point rounding.",
        "zh": "**同一个数，两条路径。** 用模型的 $q_i \\cdot k_j$ 算，“{i}”对“{j}”的分数是 {dot}；"
        "用双线性形式算是 {bilinear}；两者相差 {diff}，只是浮点舍入误差。",
    },
    "qkv.pair.identical": {
        "en": "**One number, two routes.** “{i}” scores “{j}” at {dot} with the model's "
        "$q_i \\cdot k_j$ and at {bilinear} through the bilinear form: the same number, to the "
        "last bit.",
        "zh": "**同一个数，两条路径。** 用模型的 $q_i \\cdot k_j$ 算，“{i}”对“{j}”的分数是 {dot}；"
        "用双线性形式算是 {bilinear}：连最后一位都相同。",
    },
    "qkv.pair.scaled": {
        "en": "Before the softmax the model multiplies this by {scale} ($1/\\sqrt{{d_k}}$, "
        "$d_k$ = {d_k}): "
        "the trace's score is {score}. Attention computed by the {backend} backend. The next "
        "stop explains the scaling.",
        "zh": "在 softmax 之前，模型会把它乘以 {scale}（$1/\\sqrt{{d_k}}$，$d_k$ = {d_k}）："
        "模型记录的分数是 {score}。注意力由 {backend} 后端计算。下一站解释为什么要缩放。",
    },
    "qkv.pair.matrix": {
        "en": "**The matching matrix** $M = W_r^Q (W_r^K)^\\top$ · {d} × {d}",
        "zh": "**匹配矩阵** $M = W_r^Q (W_r^K)^\\top$ · {d} × {d}",
    },
    "qkv.pair.why": {
        "en": "So q · k is a *learned* way of comparing two tokens. The dot product by itself "
        "knows nothing about language: it only rewards vectors that point the same way. "
        "Which pairs end up pointing the same way is decided by $W^Q$ and $W^K$, and training "
        "adjusts them until the pairs the task needs get high scores.\n\n"
        "Two consequences:\n"
        "- The comparison need not be symmetric: $x_i M x_j^\\top$ and $x_j M x_i^\\top$ differ "
        "unless M is "
        "symmetric, so *i → j* and *j → i* can score differently.\n"
        "- With random weights, like these, the scores are arbitrary. A high score here means "
        "nothing about the sentence — and in a trained model a high score is still a routing "
        "decision, not proof of a linguistic relation.",
        "zh": "所以 q · k 是一种*学出来的*比较两个 token 的方式。点积本身不懂语言：它只奖励"
        "方向一致的向量。哪些 token 对最终方向一致，由 $W^Q$ 和 $W^K$ 决定；训练会改动它们，"
        "让任务用得上的 token 对拿到高分。\n\n"
        "由此有两点：\n"
        "- 这种比较不一定对称：除非 M 对称，否则 $x_i M x_j^\\top$ 和 $x_j M x_i^\\top$ 并不相等，"
        "所以 *i → j* 和 *j → i* 的分数可以不同。\n"
        "- 像这里这样的随机权重，分数是任意的，高分对句子没有任何含义——即使在训练好的模型里，"
        "高分也只是一种信息路由的决定，而不是语言关系的证明。",
    },
    # --- values ---------------------------------------------------------------------------------
    "qkv.v.title": {"en": "Why V carries the content", "zh": "为什么由 V 承载内容"},
    "qkv.v.body": {
        "en": "The softmax of the scores gives the weights $\\alpha_{ij}$: how much token i takes "
        "from "
        "token j. What it takes is j's value vector. Queries and keys are used up in deciding "
        "the weights; only values reach the output.",
        "zh": "对分数做 softmax 得到权重 $\\alpha_{ij}$：token i 从 token j 那里拿多少。"
        "拿走的是 j 的值向量。"
        "查询和键只用来决定权重，真正进入输出的只有值。",
    },
    "qkv.v.row": {
        "en": "Query “{token}”, head {head}: its weights and every token's value.",
        "zh": "查询“{token}”，第 {head} 个头：它的权重和每个 token 的值向量。",
    },
    "qkv.v.check_exact": {
        "en": "Summing $\\alpha_{ij} v_j$ by hand gives exactly the row the backend's attention "
        "returned.",
        "zh": "手工计算 $\\alpha_{ij} v_j$ 之和，与后端注意力返回的那一行完全相同。",
    },
    "qkv.v.check": {
        "en": "Summing $\\alpha_{{ij}} v_j$ by hand gives the row the backend's attention "
        "returned, up to {diff}.",
        "zh": "手工计算 $\\alpha_{{ij}} v_j$ 之和，与后端注意力返回的那一行相差不超过 {diff}。",
    },
    "qkv.v.roles": {
        "en": "In short: **Q and K decide the routing** (who takes how much from whom), **V is "
        "what gets routed**. Keeping them apart lets a token be easy to find for one reason and "
        "pass on something else entirely.",
        "zh": "简而言之：**Q 和 K 决定信息路由**（谁从谁那里拿多少），**V 是被路由的信息本身**。"
        "把它们分开，一个 token 就可以因为某种特征而容易被找到，交出去的却是完全不同的内容。",
    },
    # --- fixed? ---------------------------------------------------------------------------------
    "qkv.fixed.title": {"en": "Are Q, K and V fixed?", "zh": "Q、K、V 是固定的吗？"},
    "qkv.fixed.body": {
        "en": "After training, $W^Q$, $W^K$ and $W^V$ no longer change. Q, K and V do: they are "
        "computed afresh from every input. Run the same weights on a second sentence and "
        "compare row by row:",
        "zh": "训练完成后，$W^Q$、$W^K$、$W^V$ 就不再变化。"
        "但 Q、K、V 会变：它们每次都由输入重新算出。"
        "用同一组权重处理第二个句子，逐行比较：",
    },
    "qkv.fixed.other": {"en": "Second sentence", "zh": "第二个句子"},
    "qkv.fixed.empty": {
        "en": "The second sentence has no tokens. Type a few words to compare.",
        "zh": "第二个句子还没有任何 token。输入几个词再比较。",
    },
    "qkv.fixed.layer": {"en": "Compare at layer", "zh": "比较第几层"},
    "qkv.fixed.layer_help": {
        "en": "Layer 1 projects the embeddings plus positions; layer 2 projects what layer 1's "
        "attention produced.",
        "zh": "第 1 层投影的是词向量加位置编码；第 2 层投影的是第 1 层注意力的输出。",
    },
    "qkv.fixed.yes": {"en": "changed", "zh": "变了"},
    "qkv.fixed.no": {"en": "same", "zh": "相同"},
    "qkv.fixed.col.a": {"en": "your sentence", "zh": "你的句子"},
    "qkv.fixed.col.b": {"en": "second sentence", "zh": "第二个句子"},
    "qkv.fixed.col.changed": {"en": "Q, K, V row", "zh": "Q、K、V 这一行"},
    "qkv.fixed.col.position": {"en": "position", "zh": "位置"},
    "qkv.fixed.count": {
        "en": "At layer {layer}: **{same}** of {total} shared positions kept exactly the same "
        "Q, K and V rows, **{changed}** changed — with the very same weights.",
        "zh": "在第 {layer} 层：{total} 个共同位置中，有 **{same}** 个位置的 Q、K、V 行完全不变，"
        "**{changed}** 个发生了变化——而权重完全是同一组。",
    },
    "qkv.fixed.why_first": {
        "en": "Why exactly these rows? In the first layer, row i of X is the embedding of token "
        "i plus the encoding of position i, and row i of Q is that row times $W^Q$. So a row "
        "changes if and only if a different token sits at that position: the same word at the "
        "same place gives the same query, key and value. Look at layer 2 to see context arrive.",
        "zh": "为什么恰好是这些行？在第一层，X 的第 i 行是第 i 个 token 的词向量加上第 i "
        "个位置的编码，而 Q 的第 i 行就是这一行乘以 $W^Q$。所以某一行变化，当且仅当那个位置上"
        "换了一个 token：相同位置上的相同词，得到的查询、键、值也相同。切换到第 2 层，"
        "可以看到上下文是怎样进来的。",
    },
    "qkv.fixed.why_later": {
        "en": "In layer 2 the input row of a token is the output of layer 1's attention, which "
        "mixed in the values of the whole sentence. Change one word anywhere and every row "
        "moves, even where the token and the position are the same: this is what makes the "
        "representations contextual.",
        "zh": "在第 2 层，某个 token 的输入行是第 1 层注意力的输出，其中已经混入了整句话的值向量。"
        "随便在哪里改一个词，每一行都会变，即使该位置的 token 和位置都没变：正是这一点"
        "让表示变成了上下文相关的。",
    },
    "qkv.fixed.answer": {
        "en": "**Are Q, K, V fixed?** The weights $W^Q$, $W^K$, $W^V$ are (once training "
        "ends); the activations Q, K, V are not — they are recomputed for every input (and, "
        "from layer 2 on, depend on the context).",
        "zh": "**Q、K、V 是固定的吗？** 权重 $W^Q$、$W^K$、$W^V$ 在训练结束后是固定的；"
        "但激活值 Q、K、V 不是——它们对每个输入重新计算（从第 2 层起还随上下文变化）。",
    },
    "qkv.solved": {
        "en": "every token gets three learned views, so “how well do we match” and “what do "
        "I pass on” are separate decisions.",
        "zh": "每个 token 有了三种学到的视角，“匹配程度如何”与“传递什么内容”成了两件独立的事。",
    },
    "qkv.hurts": {
        "en": "the spread of raw q · k grows like √d_k (its variance like d_k), and large scores "
        "push the softmax to all-or-nothing. Next: dividing by √d_k.",
        "zh": "未经缩放的 q · k 的波动幅度随 √d_k 增大（方差随 d_k 增大），"
        "过大的分数会把 softmax 推向非此即彼。"
        "下一站：除以 √d_k。",
    },
    # --- words inside formulas (through views.latex.tex_words) ---
    "qkv.tex.trace": {"en": "(the trace: ", "zh": "（模型记录的值："},
}
