"""Words of the Multi-head attention page (prefix ``mh.``)."""

MESSAGES: dict[str, dict[str, str]] = {
    "multi_head.title": {"en": "Multi-head attention", "zh": "多头注意力"},
    "multi_head.intro": {
        "en": "A single head projects the tokens into one query/key/value space, and its softmax "
        "gives each token one distribution of weight. Multi-head attention runs $h$ heads side "
        "by side, each with its **own** learned projections $W_i^Q, W_i^K, W_i^V$: the same "
        "tokens are projected into $h$ different subspaces, each head attends in its own, and "
        "the results are joined and mixed by one more matrix, $W^O$. Each head works at width "
        "$d_k = d_{\\text{model}} / h$.",
        "zh": "单个注意力头只把 token 投影到一个查询/键/值空间，它的 softmax 也只给每个 token "
        "一种权重分布。多头注意力让 $h$ 个头并排工作，每个头都有**自己**可学习的投影 "
        "$W_i^Q, W_i^K, W_i^V$：同一批 token 被投影到 $h$ 个不同的子空间，每个头在自己的子空间里"
        "计算注意力，结果再拼接起来，由另一个矩阵 $W^O$ 混合。每个头的宽度是 "
        "$d_k = d_{\\text{model}} / h$。",
    },
    "multi_head.computing": {"en": "Running the toy model…", "zh": "正在运行玩具模型…"},
    "multi_head.d_model_help": {
        "en": "The width of every token's vector in the toy model (the original base model "
        "used 512).",
        "zh": "玩具模型中每个 token 向量的宽度（原始 Transformer 基础模型用的是 512）。",
    },
    "multi_head.h_help": {
        "en": "The number of heads. It must divide d_model, so that each head gets a whole "
        "number of columns, d_k = d_model / h.",
        "zh": "注意力头的个数。它必须整除 d_model，这样每个头才能分到整数个列，"
        "即 d_k = d_model / h。",
    },
    "multi_head.invalid": {
        "en": "h = {h} does not divide d_model = {d_model} (it would give d_k = {ratio}, and a "
        "head cannot have a fraction of a column). For d_model = {d_model} the valid choices "
        "are h = {valid}. Showing h = {used}, the nearest one, until you pick again.",
        "zh": "h = {h} 不能整除 d_model = {d_model}（那样 d_k = {ratio}，而一个头不可能分到"
        "零点几列）。d_model = {d_model} 时，可选的 h 是 {valid}。在你重新选择之前，"
        "这里先显示最接近的 h = {used}。",
    },
    "multi_head.n": {"en": "n (tokens)", "zh": "n（token 数）"},
    "multi_head.window_help": {
        "en": "The small matrices show {shown} of the {n} tokens at a time.",
        "zh": "小矩阵一次显示 {n} 个 token 中的 {shown} 个。",
    },
    "multi_head.window_note": {
        "en": "Showing tokens {first}–{last} of {n}; everything was computed over all {n}.",
        "zh": "当前显示第 {first}–{last} 个 token（共 {n} 个）；所有数字都在全部 {n} 个 token "
        "上计算。",
    },
    # --- heads side by side -----------------------------------------------------------------
    "multi_head.heads.title": {"en": "h heads, h matrices", "zh": "h 个头，h 张矩阵"},
    "multi_head.heads.body": {
        "en": "One weight matrix per head, all for the same sentence and the same layer. They "
        "differ because each head has its own $W_i^Q$ and $W_i^K$. Change h above and watch "
        "the number of matrices follow.",
        "zh": "每个头一张权重矩阵，句子相同、层也相同。它们之所以不同，是因为每个头都有自己的 "
        "$W_i^Q$ 和 $W_i^K$。在上面改变 h，看看矩阵的数量怎样随之变化。",
    },
    "multi_head.head_label": {"en": "head {number}", "zh": "第 {number} 个头"},
    "multi_head.axis.query": {"en": "query i", "zh": "查询 i"},
    "multi_head.axis.key": {"en": "key j", "zh": "键 j"},
    "multi_head.axis.head": {"en": "head", "zh": "注意力头"},
    # --- one token, many heads --------------------------------------------------------------
    "multi_head.his.title": {
        "en": "One token, several relations: one row per head",
        "zh": "一个 token，多种关系：每个头一行",
    },
    "multi_head.his.body": {
        "en": "A word often stands in more than one relation at once: a pronoun points back to "
        "the noun it stands for and also marks the noun that follows it. One softmax row can "
        "hold only one distribution, so a single head must squeeze every such relation into one "
        "set of weights. With several heads, each query has one row per head, and each row can "
        "lean somewhere else. Below is each head's row for the token you pick, as the toy model "
        "computed it.",
        "zh": "一个词常常同时处在几种关系中：代词既回指它所代替的名词，又限定紧跟其后的名词。"
        "一行 softmax 只能表达一种分布，单个头就得把所有这些关系挤进同一组权重里。"
        "有了多个头，每个查询在每个头里各有一行，每一行都可以偏向不同的地方。"
        "下面是你所选 token 在每个头里的那一行，由玩具模型实际算出。",
    },
    "multi_head.his.example": {
        "en": "In the running example *Tom loves his dog*, *his* refers back to *Tom* (whose "
        "dog?) and is the determiner of *dog* (which dog?). A trained model could give these "
        "two relations to two different heads; the sentence below the table says what this "
        "untrained toy's heads actually do.",
        "zh": "在贯穿全程的例句 *Tom loves his dog* 中，*his* 回指 *Tom*（谁的狗？），"
        "同时又是 *dog* 的限定词（哪条狗？）。训练好的模型可能把这两种关系交给两个不同的头；"
        "表格下方的句子说明这个未经训练的玩具模型的各个头实际上是怎样分配权重的。",
    },
    "multi_head.his.pick": {"en": "Query token", "zh": "查询 token"},
    "multi_head.his.weight": {"en": "weight given by “{token}”", "zh": "“{token}” 分配的权重"},
    "multi_head.his.col.top": {"en": "largest weight on", "zh": "权重最大的键"},
    "multi_head.his.col.weight": {"en": "weight", "zh": "权重"},
    "multi_head.his.top_one": {"en": "{tokens}", "zh": "{tokens}"},
    "multi_head.his.top_tie": {
        "en": "tie of {count}: {tokens}",
        "zh": "{count} 个并列：{tokens}",
    },
    "multi_head.his.split": {
        "en": "For {query}, the {h} heads put their largest weights on {count} different keys: "
        "{keys}. Each head's row is its own distribution.",
        "zh": "对 {query} 来说，{h} 个头的最大权重落在 {count} 个不同的键上：{keys}。"
        "每个头的那一行都是它自己的分布。",
    },
    "multi_head.his.agree": {
        "en": "For {query}, all {h} heads put their largest weight on the same key, {key}: here "
        "the heads did not spread this row over different tokens.",
        "zh": "对 {query} 来说，全部 {h} 个头都把最大权重放在同一个键 {key} 上："
        "这里各个头没有把这一行分散到不同的 token 上。",
    },
    "multi_head.his.random": {
        "en": "Read these rows as mechanics, not meaning. The toy model's weights are **random "
        "and untrained**, so which head leans towards which token here is arbitrary — change "
        "d_model or h and it changes. Nobody assigns roles to heads: in a trained model, what "
        "a head tracks emerges from training, and even then a head that lines up with "
        "coreference is a pattern to verify, not a label. The MiniLM attention page, under "
        "Real model, shows the heads of a trained network.",
        "zh": "请把这些行当作机制来看，而不是含义。玩具模型的权重是**随机初始化、未经训练的**，"
        "所以这里哪个头偏向哪个 token 完全是任意的——改一下 d_model 或 h，它就会变。"
        "没有人给各个头指派角色：在训练好的模型里，一个头关注什么是训练中涌现出来的；"
        "即便某个头看起来与指代关系吻合，那也只是有待验证的规律，而不是标签。"
        "“真实模型”下的“MiniLM 的注意力”页会展示训练好的网络中的注意力头。",
    },
    # --- the trained toy's heads (the random-or-trained switch) ------------------------------
    "multi_head.trained.title": {
        "en": "Heads that had a reason: a trained toy",
        "zh": "有了理由的头：训练后的玩具模型",
    },
    "multi_head.trained.body": {
        "en": "Above, the heads differ only by chance. Switch to *trained* to see heads that "
        "training gave a reason to differ: the small Transformer of the Watch-it-learn page, "
        "{layers} layers of {h} heads each (d_model = {d_model}, d_k = {d_k}), trained on "
        "sentences where the possessive (*his* or *her*) can only be predicted from the name "
        "earlier on. It reads your sentence in its own {words}-word vocabulary, at its own "
        "sizes: the sliders above do not change it.",
        "zh": "上面各个头的差别只来自随机初始化。切换到“训练后”，看看训练给了它们分工的理由之后"
        "会怎样：“看它学会”页面里的小 Transformer，{layers} 层、每层 {h} 个头"
        "（d_model = {d_model}，d_k = {d_k}），在这样的句子上训练过——物主代词"
        "（他的或她的）只能根据前面出现的名字来预测。它用自己 {words} 个词的词表、按自己的尺寸"
        "来读你的句子：上面的滑块不会改变它。",
    },
    "multi_head.trained.reads": {
        "en": "The trained toy reads **{sentence}**. Each small matrix is one head, named "
        "layer · head (L2·H3: layer 2, head 3); each row a query, each column a key. Above "
        "the diagonal the causal mask keeps every weight at 0.",
        "zh": "训练后的玩具模型读的是 **{sentence}**。每张小矩阵是一个头，按“层·头”命名"
        "（L2·H3：第 2 层的第 3 个头）；每行是一个查询，每列是一个键。对角线以上被因果遮罩"
        "遮住，权重都为 0。",
    },
    "multi_head.trained.hover": {
        "en": "At {n} tokens the cells are too small to show their percentages: hover over a cell "
        "to read its weight.",
        "zh": "有 {n} 个 token 时，格子太小，显示不下百分比：将鼠标悬停在格子上即可查看其权重。",
    },
    "multi_head.trained.layer": {"en": "Layer {layer}", "zh": "第 {layer} 层"},
    "multi_head.trained.row": {
        "en": "Where to look: the model is causal, so the possessive {possessive} is predicted "
        "at the word before it, {query}, and that is the only row the training scored. That "
        "row in every head, one line per head:",
        "zh": "该看哪里：这是因果模型，物主代词 {possessive} 是在它前一个词 {query} 的位置上"
        "预测的，训练时也只给这一行打过分。下面是每个头的这一行，一个头一行：",
    },
    "multi_head.trained.caveat": {
        "en": "These are the weights of a toy trained on **one task**, not linguistic truth. "
        "The loss paid for one thing only — predicting *his* or *her* — so a head that looks at "
        "the name does so because the task rewarded it, not because the model knows what a "
        "possessive is; and a head that looks elsewhere is not wrong, it has another job or "
        "none. Even in a model trained on real text a weight says where information flowed "
        "inside one head, not why.",
        "zh": "这些是一个只在**单一任务**上训练过的玩具模型的权重，不是语言学事实。损失函数只为"
        "一件事付出回报——预测“他的”还是“她的”——所以某个头看向名字，是因为这个任务奖励了它，"
        "而不是因为模型懂得什么是物主代词；看向别处的头也没有错，它只是有别的工作，或者什么"
        "也没学到。即便在真实文本上训练的模型里，权重说明的也只是信息在一个头里往哪里流，"
        "而不是为什么。",
    },
    # --- concat and W^O ---------------------------------------------------------------------
    "multi_head.concat.title": {"en": "Concat, then $W^O$", "zh": "先拼接，再乘 $W^O$"},
    "multi_head.concat.body": {
        "en": "Each head returns an ${n \\times d_k}$ matrix: one $d_k$-wide vector per token. "
        "Concat places the $h$ head vectors of the same token next to each other, giving every "
        "token a vector of width $h \\cdot d_k = d_{\\text{model}}$ again. $W^O$ then mixes "
        "the heads' columns, so the output can combine what different heads found.",
        "zh": "每个头返回一个 ${n \\times d_k}$ 的矩阵：每个 token 一个宽 $d_k$ 的向量。"
        "拼接（Concat）把同一个 token 在 $h$ 个头里得到的向量并排放在一起，"
        "于是每个 token 又得到宽度为 "
        "$h \\cdot d_k = d_{\\text{model}}$ 的向量。随后 $W^O$ 把各个头的列混合起来，"
        "输出因此能把不同的头找到的信息结合在一起。",
    },
    "multi_head.value": {"en": "value", "zh": "数值"},
    "multi_head.concat.more": {
        "en": "… and {more} more {more:head|heads}, each the same shape.",
        "zh": "……还有 {more} 个头，形状都一样。",
    },
    "multi_head.concat.columns": {"en": "columns {first}–{last}", "zh": "第 {first}–{last} 列"},
    "multi_head.concat.cols": {"en": "head · column", "zh": "头 · 列"},
    "multi_head.concat.check": {
        "en": "Checked on the trace: the concat's column blocks are the heads' outputs (largest "
        "difference {concat}), and $\\operatorname{{Concat}} \\cdot W^O$ is the attention "
        "output the model recorded (largest difference {out}): both within rounding error.",
        "zh": "已在轨迹上核对：拼接结果的各个列块就是各个头的输出（最大差值 {concat}），"
        "$\\operatorname{{Concat}} \\cdot W^O$ 就是模型记录的注意力输出（最大差值 {out}）："
        "两者都在舍入误差之内。",
    },
    "multi_head.concat.check_apart": {
        "en": "Checked on the trace: the concat's column blocks differ from the heads' outputs by "
        "up to {concat}, and $\\operatorname{{Concat}} \\cdot W^O$ from the attention output "
        "the model recorded by up to {out}: more than rounding error.",
        "zh": "已在轨迹上核对：拼接结果的各个列块与各个头的输出最多相差 {concat}，"
        "$\\operatorname{{Concat}} \\cdot W^O$ 与模型记录的注意力输出最多相差 {out}："
        "超出了舍入误差。",
    },
    "multi_head.concat.not_sentences": {
        "en": "Concat joins features, not sentences: the number of rows stays n, and each row "
        "is still one token.",
        "zh": "拼接的是特征，不是句子：行数仍然是 n，每一行仍然对应一个 token。",
    },
    # --- 512 --------------------------------------------------------------------------------
    "multi_head.base.title": {
        "en": "512, 8, 64: chosen sizes, not limits",
        "zh": "512、8、64：是选定的尺寸，不是上限",
    },
    "multi_head.base.body": {
        "en": "The original Transformer's base model used $d_{\\text{model}} = 512$ and $h = 8$, "
        "so $d_k = 512 / 8 = 64$. These are hyper-parameters — a trade between how much a "
        "vector can express, how much computation and memory it costs, and how stably the "
        "model trains. Its larger sibling used $d_{\\text{model}} = 1024$; modern models use "
        "many other widths. The toy here uses tiny ones so every number fits on the screen.",
        "zh": "原始 Transformer 的基础模型取 $d_{\\text{model}} = 512$、$h = 8$，"
        "所以 $d_k = 512 / 8 = 64$。这些都是超参数——在向量的表达能力、计算量与显存开销、"
        "以及训练的稳定性之间权衡的结果。更大的版本用的是 $d_{\\text{model}} = 1024$；"
        "现代模型则采用各种各样的宽度。这里的玩具模型用很小的尺寸，好让每个数字都能显示在屏幕上。",
    },
    "multi_head.base.row": {"en": "configuration", "zh": "配置"},
    "multi_head.base.row.base": {
        "en": "Transformer base (2017)",
        "zh": "Transformer 基础版（2017）",
    },
    "multi_head.base.row.big": {"en": "Transformer big (2017)", "zh": "Transformer 大型版（2017）"},
    "multi_head.base.row.toy": {
        "en": "this toy, as set above",
        "zh": "本页的玩具模型（上面的设置）",
    },
    "multi_head.base.not_length": {
        "en": "512 is the width of each token's vector, not a maximum sentence length. Your "
        "sentence has n = {n} {n:token|tokens}; in the base model it would enter as an n × 512 "
        "matrix, and a sentence of 10 tokens as a 10 × 512 one. The length n and the width d_model "
        "are two separate numbers.",
        "zh": "512 是每个 token 向量的宽度，不是句子长度的上限。你的句子有 n = {n} 个 token，"
        "在基础模型里它会以 n × 512 的矩阵进入；10 个 token 的句子则是 10 × 512。"
        "长度 n 和宽度 d_model 是两个互不相干的数。",
    },
    "multi_head.params.title": {"en": "What the projections cost", "zh": "这些投影需要多少参数"},
    "multi_head.params.body": {
        "en": "Each head's $W_i^Q$, $W_i^K$, $W_i^V$ is a ${d_{\\text{model}} \\times d_k}$ "
        "matrix, and $W^O$ is ${d_{\\text{model}} \\times d_{\\text{model}}}$. Since "
        "$h \\cdot d_k = d_{\\text{model}}$, the three projections together hold "
        "$3\\,d_{\\text{model}}^2$ weights whatever $h$ is, and $W^O$ adds one more "
        "$d_{\\text{model}}^2$ (biases left out):",
        "zh": "每个头的 $W_i^Q$、$W_i^K$、$W_i^V$ 都是 ${d_{\\text{model}} \\times d_k}$ 的矩阵，"
        "$W^O$ 是 ${d_{\\text{model}} \\times d_{\\text{model}}}$。由于 "
        "$h \\cdot d_k = d_{\\text{model}}$，无论 $h$ 取多少，三种投影加起来都是 "
        "$3\\,d_{\\text{model}}^2$ 个权重，$W^O$ 再加上 $d_{\\text{model}}^2$（不计偏置）：",
    },
    "multi_head.params.total": {"en": "total", "zh": "合计"},
    "multi_head.params.same": {
        "en": "Every valid h for d_model = {d_model} costs the same: more heads means narrower "
        "heads, not more weights.",
        "zh": "d_model = {d_model} 时，每一种合法的 h 参数量都相同：头越多，每个头就越窄，"
        "权重总数并不增加。",
    },
    # --- summary ----------------------------------------------------------------------------
    "multi_head.solved": {
        "en": "each token can gather several different mixtures at once, in several learned "
        "subspaces, for the same number of weights as one wide head.",
        "zh": "每个 token 可以在多个学到的子空间里同时汇集几种不同的混合信息，"
        "而参数量与一个宽的单头相同。",
    },
    "multi_head.hurts": {
        "en": "attention by itself ignores word order — shuffle the tokens and each one gets "
        "the same output, only moved. Positional encodings put the order back.",
        "zh": "注意力本身不理会词序——把 token 打乱，每个 token 的输出不变，只是位置跟着移动。"
        "位置编码负责把顺序信息补回来。",
    },
}
