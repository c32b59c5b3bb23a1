"""Words of the Watch-it-learn page (prefix ``watch_it_learn.``)."""

MESSAGES: dict[str, dict[str, str]] = {
    "watch_it_learn.title": {
        "en": "Watch it learn: a head finds the name",
        "zh": "看它学会：一个注意力头找到名字",
    },
    "watch_it_learn.intro": {
        "en": "On the toy pages $W^Q$, $W^K$ and $W^V$ were random, so whichever pair lit up "
        "did so by chance. Here a small Transformer of the same kind starts from random weights "
        "and is trained on this server: every step of gradient descent changes $W^Q$, $W^K$ and "
        "$W^V$ (and every other weight) a little. The task is chosen so that one word can only "
        "be guessed by looking back at another — and you can watch a head learn to do exactly "
        "that. (From *从词向量到 Transformer*: the projection matrices are updated during "
        "training and fixed afterwards; what each head does is not set by hand but emerges.)",
        "zh": "在前面的玩具页面里，$W^Q$、$W^K$、$W^V$ 都是随机的，哪一对 token 被点亮纯属偶然。"
        "这里，一个同类的小 Transformer 从随机权重出发，在这台服务器上训练：梯度下降的每一步"
        "都会把 $W^Q$、$W^K$、$W^V$（以及其他所有权重）改动一点。任务经过专门设计：某个词只有"
        "回头看另一个词才能猜出来——你可以亲眼看到一个注意力头学会这件事。"
        "（参见《从词向量到 Transformer》：投影矩阵在训练中不断更新、训练后固定；"
        "每个头的分工不是人为指定的，而是在训练中自己形成的。）",
    },
    "watch_it_learn.model": {
        "en": "The model: decoder-only, {layers} layers × {h} heads, d_model = {d_model}, "
        "d_k = {d_k}, FFN width {d_ff}, Pre-LN, causal mask, learned positions; {params} "
        "weights. Trained {steps} steps of AdamW (batch {batch}, learning rate {lr}) on "
        "{backend} in {seconds} s{disk}.",
        "zh": "模型：仅解码器结构，{layers} 层 × {h} 个头，d_model = {d_model}，d_k = {d_k}，"
        "FFN 宽度 {d_ff}，Pre-LN，因果掩码，可学习的位置向量；共 {params} 个权重。"
        "用 AdamW 训练 {steps} 步（批大小 {batch}，学习率 {lr}），后端 {backend}，用时 {seconds} 秒"
        "{disk}。",
    },
    "watch_it_learn.from_disk": {
        "en": " (read back from this server's disk cache)",
        "zh": "（从本服务器的磁盘缓存读回）",
    },
    "watch_it_learn.progress": {
        "en": "Training the task and its control: step {step} of {steps}…",
        "zh": "正在训练任务及其对照组：第 {step} / {steps} 步……",
    },
    # --- the task ---------------------------------------------------------------------------
    "watch_it_learn.task.title": {"en": "The task", "zh": "任务"},
    "watch_it_learn.task.body": {
        "en": "Sentences are generated from a small vocabulary of {words} words: a name (half "
        "male, half female), verbs, objects, places that only distract, and then a possessive "
        "— *his* or *her* — that agrees with the name and with nothing else. The model is "
        "scored only where the possessive is predicted. It is a causal language model, so the "
        "possessive is predicted at the position **before** it (the verb just before it): that "
        "query is the one whose attention we watch. Its answer depends on a token several "
        "places back.",
        "zh": "句子由一个只有 {words} 个词的小词表生成：一个名字（一半男性、一半女性）、"
        "动词、宾语、只起干扰作用的地点短语，最后是一个物主代词——*他的* 或 *她的*——"
        "它只与名字的性别一致，"
        "与其他任何词都无关。模型只在预测物主代词的位置计损失。这是一个因果语言模型，"
        "物主代词是在它**前一个**位置（紧挨着它的动词）上被预测的：我们观察的正是这个查询位置的"
        "注意力。它的答案取决于好几个位置之前的一个 token。",
    },
    "watch_it_learn.task.col.sentence": {"en": "generated sentence", "zh": "生成的句子"},
    "watch_it_learn.task.col.name": {"en": "name", "zh": "名字"},
    "watch_it_learn.task.col.query": {
        "en": "query (predicts the next word)",
        "zh": "查询（预测下一个词）",
    },
    "watch_it_learn.task.col.answer": {"en": "answer", "zh": "答案"},
    "watch_it_learn.data": {"en": "Training data", "zh": "训练数据"},
    "watch_it_learn.data.en": {"en": "English sentences", "zh": "英文句子"},
    "watch_it_learn.data.zh": {"en": "Chinese sentences", "zh": "中文句子"},
    "watch_it_learn.seed": {"en": "Seed", "zh": "随机种子"},
    "watch_it_learn.seed_help": {
        "en": "Another seed: other random initial weights and other sentences. Which head "
        "learns the job changes; that some head does, does not.",
        "zh": "换一个种子：初始权重和句子都换一批。学会这件事的是哪个头会变；"
        "但总会有头学会，这一点不变。",
    },
    # --- the loss --------------------------------------------------------------------------
    "watch_it_learn.loss.title": {
        "en": "The loss falls, checkpoint by checkpoint",
        "zh": "损失下降：逐个检查点来看",
    },
    "watch_it_learn.loss.body": {
        "en": "Cross-entropy on the possessive, step by step, for the task and for its "
        "**control**: the same sentences with *his* or *her* drawn at random, so that the name "
        "says nothing about it. The control cannot beat a coin toss, ln 2 ≈ {guess}. The "
        "slider picks a checkpoint: every chart below shows the model as it was at that step.",
        "zh": "每一步在物主代词上的交叉熵，分别对应任务和它的**对照组**：句子完全一样，但 *他的* / "
        "*她的* 随机抽取，名字对它毫无提示。对照组不可能比掷硬币更好，即 ln 2 ≈ {guess}。"
        "滑块选择一个检查点：下面所有图表显示的都是模型在那一步时的样子。",
    },
    "watch_it_learn.loss.axis_step": {"en": "training step", "zh": "训练步数"},
    "watch_it_learn.loss.axis_loss": {"en": "loss on possessives", "zh": "物主代词上的损失"},
    "watch_it_learn.loss.series": {"en": "model", "zh": "模型"},
    "watch_it_learn.series.task": {"en": "trained on the task", "zh": "在任务上训练"},
    "watch_it_learn.series.control": {
        "en": "control (possessive random)",
        "zh": "对照组（物主代词随机）",
    },
    "watch_it_learn.loss.guess": {"en": "coin toss: ln 2", "zh": "掷硬币：ln 2"},
    # --- the scrubber ----------------------------------------------------------------------
    "watch_it_learn.watch.title": {"en": "One head, step by step", "zh": "一个头，一步一步"},
    "watch_it_learn.watch.body": {
        "en": "Move the slider through the checkpoints. Watched: head **{head}**, the one that "
        "ends with the most weight on the name (heads are named L·H: layer, head, from 1).",
        "zh": "拖动滑块，逐个查看训练检查点。被观察的是头 **{head}**——训练结束时放在名字上的"
        "权重最多的那个（头的记法 L·H：第几层、第几个头，从 1 数起）。",
    },
    "watch_it_learn.watch.step": {"en": "checkpoint (training step)", "zh": "检查点（训练步数）"},
    "watch_it_learn.watch.sentence": {
        "en": "Read by the model at step {step}: **{sentence}**",
        "zh": "第 {step} 步的模型读到的句子：**{sentence}**",
    },
    "watch_it_learn.watch.yours": {
        "en": "Your sentence, in the model's words.",
        "zh": "你的句子（按模型词表切分）。",
    },
    "watch_it_learn.watch.dropped": {
        "en": "Words outside the model's {words}-word vocabulary are left out: {unknown}.",
        "zh": "模型的词表只有 {words} 个词，表外的词被略去：{unknown}。",
    },
    "watch_it_learn.watch.cut": {
        "en": "The model has {limit} positions, so it reads your first {limit} words; "
        "{dropped} more are left out.",
        "zh": "模型只有 {limit} 个位置，所以只读你的前 {limit} 个词，其余 {dropped} 个被略去。",
    },
    "watch_it_learn.watch.no_words": {
        "en": "The sidebar's text has no words to read, so the model reads a generated sentence.",
        "zh": "侧边栏中的文本里没有可读的词，所以模型读的是一个生成的句子。",
    },
    "watch_it_learn.watch.example": {
        "en": "Your sentence has no name followed by *his* or *her* in this vocabulary, so a "
        "generated one is shown. Try e.g. “{hint}”.",
        "zh": "在这个词表里，你的句子没有“名字……他的/她的”这样的结构，所以这里显示一个生成的"
        "句子。可以试试“{hint}”。",
    },
    "watch_it_learn.watch.other_data": {
        "en": "Your sentence reads as {data}: pick them under “Training data” above to have the "
        "model trained on them read it.",
        "zh": "你的句子属于{data}：在上面的“训练数据”中选择它，"
        "就能让在这类句子上训练的模型来读它。",
    },
    "watch_it_learn.watch.row_title": {
        "en": "{head}: attention from {query}",
        "zh": "{head}：从 {query} 出发的注意力",
    },
    "watch_it_learn.watch.axis_token": {
        "en": "token (position · text)",
        "zh": "token（位置 · 文本）",
    },
    "watch_it_learn.watch.axis_weight": {"en": "attention weight", "zh": "注意力权重"},
    "watch_it_learn.watch.probs": {
        "en": "At {query} the model gives *{his}* {p_his} and *{her}* {p_her}.",
        "zh": "在 {query} 处，模型给 *{his}* 的概率是 {p_his}，给 *{her}* 的是 {p_her}。",
    },
    "watch_it_learn.weight.title": {
        "en": "Weight on the name, over training",
        "zh": "放在名字上的权重随训练的变化",
    },
    "watch_it_learn.weight.body": {
        "en": "Averaged over {count} held-out sentences: the query's attention on the name. "
        "Beside it, the controls: the same head in the control model, the head of the trained "
        "model that moved least ({idle}), and chance — the weight a head gives when it spreads "
        "evenly over the tokens it may see.",
        "zh": "在 {count} 个未参与训练的句子上取平均：查询位置放在名字上的注意力。"
        "旁边是对照：对照模型中的同一个头、训练后模型里变化最小的头（{idle}），以及随机水平——"
        "一个头把注意力平均分给它能看到的所有 token 时得到的权重。",
    },
    "watch_it_learn.weight.axis": {"en": "mean weight on the name", "zh": "名字上的平均权重"},
    "watch_it_learn.weight.watched": {"en": "{head}, trained", "zh": "{head}（任务模型）"},
    "watch_it_learn.weight.control": {"en": "{head}, control model", "zh": "{head}（对照模型）"},
    "watch_it_learn.weight.idle": {
        "en": "{head}, trained (moved least)",
        "zh": "{head}（任务模型，变化最小）",
    },
    "watch_it_learn.weight.chance": {"en": "chance", "zh": "随机水平"},
    "watch_it_learn.grid.title": {
        "en": "Every head at step {step}: weight on the name",
        "zh": "第 {step} 步每个头放在名字上的权重",
    },
    "watch_it_learn.grid.layer": {"en": "layer", "zh": "层"},
    "watch_it_learn.grid.head": {"en": "head", "zh": "头"},
    # --- inside the weights -----------------------------------------------------------------
    "watch_it_learn.inside.title": {
        "en": "Inside the weights, before and after",
        "zh": "权重内部：训练前后对比",
    },
    "watch_it_learn.inside.body": {
        "en": "The token embedding is learned too: the gradient of the loss on possessives "
        "reaches the rows of the words that were read. Below, its rows in two dimensions "
        "(principal component analysis, fitted separately at each step; the axes have no "
        "units), at step 0 and at the last step.",
        "zh": "词向量表也是学出来的：物主代词上损失的梯度会传到被读到的那些词的行。"
        "下面是它的各行在二维平面上的投影（主成分分析，每一步单独拟合，坐标轴没有单位），"
        "分别是第 0 步和最后一步。",
    },
    "watch_it_learn.inside.map": {
        "en": "step {step} ({explained} of the variance shown)",
        "zh": "第 {step} 步（图中保留了 {explained} 的方差）",
    },
    "watch_it_learn.inside.role": {"en": "word", "zh": "词类"},
    "watch_it_learn.role.male": {"en": "male name", "zh": "男性名字"},
    "watch_it_learn.role.female": {"en": "female name", "zh": "女性名字"},
    "watch_it_learn.role.verb": {"en": "verb", "zh": "动词"},
    "watch_it_learn.role.noun": {"en": "noun", "zh": "名词"},
    "watch_it_learn.role.place": {"en": "place word", "zh": "方位词"},
    "watch_it_learn.role.possessive": {"en": "possessive", "zh": "物主代词"},
    "watch_it_learn.role.other": {"en": "other", "zh": "其他"},
    "watch_it_learn.scores.title": {
        "en": "What {head}'s $W_h^Q (W_h^K)^\\top$ gives pairs of words",
        "zh": "{head} 的 $W_h^Q (W_h^K)^\\top$ 给词对打的分",
    },
    "watch_it_learn.scores.body": {
        "en": "Each cell: a verb as the query against a word as the key, "
        "(LN(e_q) $W^Q_h$)·(LN(e_k) $W^K_h$) / √d_k with the first layer's LayerNorm and biases, "
        "positions left out — so it is the word's part of the score, not the whole score.",
        "zh": "每个格子：以动词为查询、以另一个词为键，计算 "
        "(LN(e_q) $W^Q_h$)·(LN(e_k) $W^K_h$) / √d_k（含第一层的 LayerNorm 和偏置，"
        "不含位置）——这是分数中来自词本身的部分，不是完整的分数。",
    },
    "watch_it_learn.scores.later_layer": {
        "en": "The watched head {head} is in layer {layer}: its queries and keys read the first "
        "layer's output, not the word vectors alone, so this view is left out.",
        "zh": "被观察的头 {head} 位于第 {layer} 层：它的查询和键读的是第一层的输出，"
        "而不只是词向量，所以这里不画这张图。",
    },
    "watch_it_learn.scores.step": {"en": "step {step}", "zh": "第 {step} 步"},
    "watch_it_learn.scores.query": {"en": "query word", "zh": "查询词"},
    "watch_it_learn.scores.key": {"en": "key word", "zh": "键词"},
    "watch_it_learn.scores.value": {"en": "score", "zh": "分数"},
    "watch_it_learn.claim.names_apart": {
        "en": "Male and female names moved apart: their separation in the embedding (the "
        "distance between the two groups' means over the spread within them) went from "
        "{before} to {after}. The control, the verbs cut into two halves that no target tells "
        "apart: {control_before} → {control_after}.",
        "zh": "男性名字和女性名字在词向量中分开了：两组均值之间的距离与组内离散程度之比从 "
        "{before} 变为 {after}。对照：把动词随意分成两半（没有任何目标区分它们），"
        "这个比值是 {control_before} → {control_after}。",
    },
    "watch_it_learn.claim.names_first": {
        "en": "After training, for each of the {rows} verbs, {head} scores every name above "
        "every noun.",
        "zh": "训练后，对这 {rows} 个动词中的每一个，{head} 给每个名字的分数都高于任何名词。",
    },
    # --- switching heads off ---------------------------------------------------------------
    "watch_it_learn.off.title": {"en": "Switch heads off", "zh": "关掉注意力头"},
    "watch_it_learn.off.body": {
        "en": "Attention weights suggest; switching a head off tests. With a head off its output "
        "is zero before $W^O$, and we measure the loss on possessives of the trained model again.",
        "zh": "注意力权重只是线索，关掉头才是检验。关掉一个头就是让它的输出在乘 $W^O$ 之前变成零，"
        "然后重新测量训练后模型在物主代词上的损失。",
    },
    "watch_it_learn.off.axis": {"en": "loss on possessives", "zh": "物主代词上的损失"},
    "watch_it_learn.off.none": {"en": "all heads on", "zh": "全部开启"},
    "watch_it_learn.off.one": {"en": "{head} off", "zh": "关掉 {head}"},
    "watch_it_learn.off.group": {
        "en": "the {count} name heads off",
        "zh": "关掉 {count} 个看名字的头",
    },
    "watch_it_learn.off.others": {"en": "{count} other heads off", "zh": "关掉另外 {count} 个头"},
    "watch_it_learn.caveat": {
        "en": "A caution the articles also give: attention weights are not a linguistic truth. "
        "Here the check is the loss with heads switched off and the control task, not the "
        "picture of the weights alone; and the work is often shared, so several heads may learn "
        "the same job.",
        "zh": "文章也提醒过：注意力权重不等于语言学上的事实。"
        "这里的依据是关掉头之后的损失和对照任务，而不只是权重的图；而且这份工作常常由几个头分担，多个头可能学会同一件事。",
    },
    # --- claims ----------------------------------------------------------------------------
    "watch_it_learn.claim.name_head": {
        "en": "Head {head} went from {start} of the query's attention on the name at step 0 to "
        "{end} after {steps} steps (chance: {chance}). The same head trained on the control "
        "task ends at {control}: it looks at the name only when the name tells it something.",
        "zh": "头 {head} 在第 0 步时把查询位置注意力的 {start} 放在名字上，训练 {steps} 步后变为 "
        "{end}（随机水平：{chance}）。在对照任务上训练的同一个头最后只有 {control}："
        "只有当名字带有信息时，它才会去看名字。",
    },
    "watch_it_learn.claim.ablation_back": {
        "en": "Switching off the {count} heads that look at the name ({heads}) raises the loss "
        "on possessives from {base} to {group} — a coin toss is {guess}. Switching off {count} "
        "other heads instead: {others}.",
        "zh": "关掉看名字的 {count} 个头（{heads}），物主代词上的损失从 {base} 升到 {group}——"
        "掷硬币是 {guess}。换成关掉另外 {count} 个头：{others}。",
    },
    "watch_it_learn.claim.ablation_kept": {
        "en": "Even with the {count} heads that look at the name ({heads}) off, the loss on "
        "possessives stays at {group} (all heads on: {base}; a coin toss: {guess}): the model "
        "finds the name another way too.",
        "zh": "即使关掉看名字的 {count} 个头（{heads}），物主代词上的损失仍是 {group}"
        "（全部开启：{base}；掷硬币：{guess}）：模型还有别的途径找到名字。",
    },
    "watch_it_learn.claim.no_single_head": {
        "en": "No single head is indispensable: with any one head off the loss is at most "
        "{loss} ({head} off).",
        "zh": "没有哪一个头是不可缺少的：任意关掉一个头，损失最多是 {loss}（关掉 {head} 时）。",
    },
    "watch_it_learn.claim.single_head": {
        "en": "Switching off {head} alone raises the loss on possessives to {loss}.",
        "zh": "只关掉 {head}，物主代词上的损失就升到 {loss}。",
    },
    "watch_it_learn.claim.your_sentence": {
        "en": "In this sentence, head {head} puts {weight} of the attention from {query} on "
        "{name} (chance: {chance}).",
        "zh": "在这个句子里，头 {head} 把 {query} 的注意力中的 {weight} 放在 {name} 上"
        "（随机水平：{chance}）。",
    },
}
