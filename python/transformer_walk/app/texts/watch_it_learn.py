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
        "that. (As *From word vectors to Transformer* puts it in its own words, the projection "
        "matrices change while the model trains and stay fixed once it is done.)",
        "zh": "在前面的玩具页面里，$W^Q$、$W^K$、$W^V$ 都是随机的，哪一对 token 被点亮纯属偶然。"
        "这里，一个同类的小 Transformer 从随机权重出发，在这台服务器上训练：梯度下降的每一步"
        "都会把 $W^Q$、$W^K$、$W^V$（以及其他所有权重）改动一点。任务经过专门设计：某个词只有"
        "回头看另一个词才能猜出来——你可以亲眼看到一个注意力头学会这件事。"
        "（参见《从词向量到 Transformer》：投影矩阵在训练时不断调整，训练结束后就不再改变。"
        "哪个头去做哪件事，并没有人事先安排，下面可以看到它是怎样在训练中出现的。）",
    },
    "watch_it_learn.model": {
        "en": "The model: decoder-only, {layers} layers, $h = {h}$ heads, "
        "$d_{{\\text{{model}}}} = {d_model}$, $d_k = d_{{\\text{{model}}}}/h = {d_k}$, FFN width "
        "{d_ff}, Pre-LN, causal mask, learned positions; {params} parameters. Trained {steps} "
        "steps of AdamW (batch {batch}, learning rate {lr}) on {backend}.",
        "zh": "模型：仅解码器结构，{layers} 层，$h = {h}$ 个头，"
        "$d_{{\\text{{model}}}} = {d_model}$，$d_k = d_{{\\text{{model}}}}/h = {d_k}$，"
        "FFN 宽度 {d_ff}，Pre-LN，因果遮罩，可学习的位置向量；共 {params} 个参数。"
        "用 AdamW 训练 {steps} 步（批大小 {batch}，学习率 {lr}），后端 {backend}。",
    },
    "watch_it_learn.timing.now": {
        "en": "Trained just now in {seconds} s.",
        "zh": "训练用时 {seconds} 秒。",
    },
    "watch_it_learn.timing.disk": {
        "en": "Trained in {seconds} s earlier; read back from the disk cache.",
        "zh": "训练用时 {seconds} 秒（本次直接读取缓存结果）。",
    },
    "watch_it_learn.progress": {
        "en": "Training the task and its control: step {step} of {steps}…",
        "zh": "正在训练任务和对照任务：第 {step} / {steps} 步……",
    },
    # --- the task ---------------------------------------------------------------------------
    "watch_it_learn.task.title": {"en": "The task", "zh": "任务"},
    "watch_it_learn.task.body": {
        "en": "Sentences are generated from a small vocabulary of {words} words: a name (half "
        "male, half female), verbs, objects, places that only distract, and then a possessive "
        "— *his* or *her* — that agrees with the name and with nothing else. The model is "
        "scored only where the possessive is predicted. It is a causal language model, so the "
        "possessive is predicted at the position **before** it (the verb just before it): that "
        "query is the one whose attention we watch. Its answer depends on the name, which can "
        "be right before it or up to a dozen tokens back.",
        "zh": "句子由一个只有 {words} 个词的小词表生成：一个名字（一半男性、一半女性）、"
        "动词、宾语、只起干扰作用的地点短语，最后是一个物主代词——「他的」或「她的」——"
        "它只与名字的性别一致，"
        "与其他任何词都无关。模型只在预测物主代词的位置计算损失。这是一个因果语言模型，"
        "物主代词是在它**前一个**位置（紧挨着它的动词）上被预测的：我们观察的正是这个查询位置的"
        "注意力。它的答案取决于名字，而名字可能就在它前面，也可能在它之前多达十几个 token 的地方。",
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
        "en": "Another seed: other random initial weights and other sentences, so another "
        "head may be the one that learns to look at the name. The page says what each seed's "
        "model did.",
        "zh": "换一个种子：初始权重和句子都换一批，学会看名字的可能是另一个头。"
        "每个种子的模型实际做了什么，页面上都会照实说明。",
    },
    # --- the loss --------------------------------------------------------------------------
    "watch_it_learn.loss.title": {
        "en": "The loss falls, checkpoint by checkpoint",
        "zh": "损失下降：逐个检查点来看",
    },
    "watch_it_learn.loss.body": {
        "en": "Cross-entropy on the possessive, step by step, for the task and for its "
        "**control task**: the same sentences with *his* or *her* drawn at random, so that the "
        "name says nothing about it. The control cannot beat a coin toss, ln 2 ≈ {guess}. The "
        "slider picks a checkpoint. It moves the vertical line on the two curves, and the "
        "sentence's attention, the model's answer and the grid of every head below show the "
        "model at that step. The embedding maps and the score matrices always compare step 0 "
        "with the last step, and the switch-offs test the model at the end of training.",
        "zh": "每一步在物主代词上的交叉熵，分别对应任务和它的**对照任务**：句子完全一样，但「他的」"
        "/「她的」随机抽取，名字对它毫无提示。对照任务不可能比掷硬币更好，即 ln 2 ≈ {guess}。"
        "滑块选择一个检查点：它移动两张曲线图上的竖线，下面句子的注意力、模型的回答和所有头的"
        "网格图都显示模型在那一步时的样子。词向量图和分数矩阵始终对比第 0 步和最后一步，"
        "关掉注意力头的检验用的则是训练结束时的模型。",
    },
    "watch_it_learn.loss.axis_step": {"en": "training step", "zh": "训练步数"},
    "watch_it_learn.loss.axis_loss_log": {
        "en": "loss on possessives (log scale)",
        "zh": "物主代词上的损失（对数刻度）",
    },
    "watch_it_learn.loss.series": {"en": "curve", "zh": "曲线"},
    "watch_it_learn.series.task": {"en": "trained on the task", "zh": "在任务上训练"},
    "watch_it_learn.series.control": {
        "en": "control task (possessive random)",
        "zh": "对照任务（物主代词随机）",
    },
    "watch_it_learn.loss.guess": {"en": "coin toss: ln 2", "zh": "掷硬币：ln 2"},
    # --- the scrubber ----------------------------------------------------------------------
    "watch_it_learn.watch.title": {"en": "One head, step by step", "zh": "逐步观察一个头"},
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
    "watch_it_learn.watch.cut.en": {
        "en": "The model has $n \\le {limit}$ positions, one per token (here one word is one "
        "token), so it reads your first {limit} words; {dropped} more are left out.",
        "zh": "模型最多只有 $n \\le {limit}$ 个位置，每个 token 占一个（这里一个词就是一个 "
        "token），所以只读你的前 {limit} 个词，其余 {dropped} 个被略去。",
    },
    "watch_it_learn.watch.cut.zh": {
        "en": "The model has $n \\le {limit}$ positions, one per token (here one word is one "
        "token; a Chinese token is a whole word such as 旁边的), so it reads your first {limit} "
        "words; {dropped} more are left out.",
        "zh": "模型最多只有 $n \\le {limit}$ 个位置，每个 token 占一个（这里一个词就是一个 token，"
        "中文的 token 也是整个词，例如“旁边的”），所以只读你的前 {limit} 个词，"
        "其余 {dropped} 个被略去。",
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
        "zh": "你的句子是{data}：在上面的“训练数据”中选择它，就能让在这类句子上训练的模型来读它。",
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
        "en": "At {query} the model gives “{his}” {p_his} and “{her}” {p_her}.",
        "zh": "在 {query} 处，模型给「{his}」的概率是 {p_his}，给「{her}」的是 {p_her}。",
    },
    "watch_it_learn.weight.title": {
        "en": "Weight on the name, over training",
        "zh": "放在名字上的权重随训练的变化",
    },
    "watch_it_learn.weight.body": {
        "en": "Averaged over {count} held-out sentences: the query's attention on the name. "
        "Beside it, the controls: the same head in the control model, the head of the trained "
        "model whose final weight on the name ended closest to uniform ({idle}), and uniform — "
        "the weight a head gives when it spreads evenly over the tokens it may see. Lines that "
        "stay at uniform lie on top of each other: hover over them to tell them apart.",
        "zh": "在 {count} 个未参与训练的句子上取平均：查询位置放在名字上的注意力。"
        "旁边是对照：对照模型中的同一个头、训练后模型里最终放在名字上的权重最接近均匀水平的头"
        "（{idle}），以及均匀水平——一个头把注意力平均分给它能看到的所有 token 时得到的权重。"
        "停在均匀水平附近的几条线会互相重叠：把鼠标移到线上就能分辨。",
    },
    "watch_it_learn.weight.axis": {"en": "mean weight on the name", "zh": "名字上的平均权重"},
    "watch_it_learn.weight.watched": {"en": "{head}, trained", "zh": "{head}（任务模型）"},
    "watch_it_learn.weight.control": {"en": "{head}, control model", "zh": "{head}（对照模型）"},
    "watch_it_learn.weight.idle": {
        "en": "{head}, trained (ended closest to uniform)",
        "zh": "{head}（任务模型，最终最接近均匀水平）",
    },
    "watch_it_learn.weight.chance": {"en": "uniform", "zh": "均匀水平"},
    "watch_it_learn.weight.by_gender": {
        "en": "At the end, {head}'s weight on the name, split by the name's gender (held-out "
        "sentences): {male} on male names, {female} on female names (uniform: {chance}).",
        "zh": "训练结束时，按名字的性别分开（未参与训练的句子）：{head} 放在男性名字上的权重是 "
        "{male}，放在女性名字上的是 {female}（均匀水平：{chance}）。",
    },
    "watch_it_learn.weight.far": {
        "en": "On the {count} held-out sentences whose name is {far} or more tokens before the "
        "query, {head} puts {weight} on the name (uniform there: {chance}).",
        "zh": "在名字位于查询之前 {far} 个 token 或更远的 {count} 个未参与训练的句子上，"
        "{head} 放在名字上的权重是 {weight}（这些句子的均匀水平：{chance}）。",
    },
    "watch_it_learn.grid.title": {
        "en": "Every head at step {step}: weight on the name",
        "zh": "第 {step} 步每个头放在名字上的权重",
    },
    "watch_it_learn.grid.layer": {"en": "layer", "zh": "层"},
    "watch_it_learn.grid.head": {"en": "head", "zh": "头"},
    # --- inside the weights -----------------------------------------------------------------
    "watch_it_learn.inside.title": {
        "en": "Inside the model, before and after",
        "zh": "模型内部：训练前后对比",
    },
    "watch_it_learn.inside.body": {
        "en": "The token embedding is learned too: the gradient of the loss on possessives "
        "reaches the rows of the words read up to the query. The possessives themselves come "
        "after the query, so no gradient reaches their rows: *his* and *her* keep their random "
        "start (only the weight decay shrinks them, by less than 1%). Below, the rows in two "
        "dimensions (principal component analysis, fitted "
        "separately at each step; the axes have no units), at step 0 and at the last step.",
        "zh": "词向量表也是学出来的：物主代词上损失的梯度会传到查询位置及其之前读到的那些词的行。"
        "物主代词本身在查询之后，梯度传不到它们的行：「他的」和「她的」一直保持随机初始值"
        "（只有权重衰减让它们缩小了不到 1%）。"
        "下面是各行在二维平面上的投影（主成分分析，每一步单独拟合，坐标轴没有单位），"
        "分别是第 0 步和最后一步。",
    },
    "watch_it_learn.inside.map": {
        "en": "step {step} ({explained} of the variance shown)",
        "zh": "第 {step} 步（前两个主成分占方差的 {explained}）",
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
        "$\\big(\\mathrm{LN}_1(e_q)W^Q_h+b^Q_h\\big)\\big(\\mathrm{LN}_1(e_k)W^K_h+b^K_h"
        "\\big)^{\\top}/\\sqrt{d_k}$, with $e$ the word's embedding row and $\\mathrm{LN}_1$ the "
        "first layer's LayerNorm: the score this head would give the two words if positions "
        "were absent. In the model the LayerNorm reads the word's vector plus its position "
        "vector, so the real score also depends on where the two words stand.",
        "zh": "每个格子：以动词为查询、以另一个词为键，计算 "
        "$\\big(\\mathrm{LN}_1(e_q)W^Q_h+b^Q_h\\big)\\big(\\mathrm{LN}_1(e_k)W^K_h+b^K_h"
        "\\big)^{\\top}/\\sqrt{d_k}$，其中 $e$ 是词向量表中这个词的行，$\\mathrm{LN}_1$ "
        "是第一层的 LayerNorm：如果没有位置信息，这个头就会给这两个词打这个分。"
        "在模型里，LayerNorm 读到的是词向量加上位置向量，所以实际的分数还取决于两个词所在的位置。",
    },
    "watch_it_learn.scores.later_layer": {
        "en": "The watched head {head} is in layer {layer}: its queries and keys read the first "
        "layer's output, not the word vectors alone, so this view is left out.",
        "zh": "被观察的头 {head} 位于第 {layer} 层：它的查询和键读的是第一层的输出，"
        "而不只是词向量，所以这里不画这张图。",
    },
    "watch_it_learn.scores.step": {"en": "step {step}", "zh": "第 {step} 步"},
    "watch_it_learn.scores.query": {"en": "query word", "zh": "查询词"},
    "watch_it_learn.scores.key": {"en": "key word", "zh": "作为键的词"},
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
        "en": "After training, for each of the {rows} verbs shown, {head} scores every name "
        "shown above every noun shown.",
        "zh": "训练后，对图中这 {rows} 个动词中的每一个，{head} 给图中每个名字的分数都高于"
        "图中任何一个名词。",
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
    "watch_it_learn.off.none": {"en": "all heads on", "zh": "所有头都开着"},
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
        "这里的依据是关掉头之后的损失和对照任务，而不只是权重的图；而且这件事常常由几个头"
        "分担，多个头可能学会同一件事。",
    },
    # --- claims ----------------------------------------------------------------------------
    "watch_it_learn.claim.name_head": {
        "en": "Head {head} went from {start} of the query's attention on the name at step 0 to "
        "{end} after {steps} steps (uniform: {chance}). The same head trained on the control "
        "task ends at {control}, and no head of the control model ends above {control_max}: "
        "the heads look at the name only when the name tells them something.",
        "zh": "头 {head} 在第 0 步时把查询位置注意力的 {start} 放在名字上，训练 {steps} 步后变为 "
        "{end}（均匀水平：{chance}）。在对照任务上训练的同一个头最后只有 {control}，"
        "对照模型中也没有哪个头最后超过 {control_max}：只有当名字带有信息时，头才会去看名字。",
    },
    "watch_it_learn.claim.ablation_back": {
        "en": "Switching off the {count} heads that look at the name ({heads}) raises the loss "
        "on possessives from {base} to {group} — a coin toss is {guess}. Switching off "
        "{others_count} other heads instead: {others}.",
        "zh": "关掉看名字的 {count} 个头（{heads}），物主代词上的损失从 {base} 升到 {group}——"
        "掷硬币是 {guess}。换成关掉另外 {others_count} 个头：{others}。",
    },
    "watch_it_learn.claim.ablation_kept": {
        "en": "Even with the {count} heads that look at the name ({heads}) off, the loss on "
        "possessives stays at {group} (all heads on: {base}; a coin toss: {guess}): the model "
        "finds the name another way too.",
        "zh": "即使关掉看名字的 {count} 个头（{heads}），物主代词上的损失仍是 {group}"
        "（所有头都开着：{base}；掷硬币：{guess}）：模型还有别的途径找到名字。",
    },
    "watch_it_learn.claim.no_single_head": {
        "en": "Switching off any one head alone leaves the loss on possessives at most {loss} "
        "({head} off).",
        "zh": "单独关掉任何一个头，物主代词上的损失最多只到 {loss}（关掉 {head} 时）。",
    },
    "watch_it_learn.claim.single_head": {
        "en": "Switching off {head} alone raises the loss on possessives to {loss}.",
        "zh": "只关掉 {head}，物主代词上的损失就升到 {loss}。",
    },
    "watch_it_learn.claim.your_sentence": {
        "en": "In this sentence, head {head} puts {weight} of the attention from {query} on "
        "{name} (uniform: {chance}).",
        "zh": "在这个句子里，头 {head} 从 {query} 出发的注意力有 {weight} 落在 {name} 上"
        "（均匀水平：{chance}）。",
    },
    "watch_it_learn.claim.your_sentence_not": {
        "en": "In this sentence, head {head} puts only {weight} of the attention from {query} on "
        "{name} (uniform: {chance}), less than {times} times the mean weight of the other tokens "
        "{query} sees: here it does not single the name out.",
        "zh": "在这个句子里，头 {head} 从 {query} 出发的注意力只有 {weight} 落在 {name} 上"
        "（均匀水平：{chance}），不到 {query} 能看到的其他 token 平均权重的 {times} 倍："
        "在这里它没有把名字挑出来。",
    },
    "watch_it_learn.claim.possessive_breaks_rule": {
        "en": "**Your sentence breaks the task's rule here:** at {query} the model prefers "
        "“{preferred}” ({p_preferred}), but the sentence has “{written}” ({p_written}). In every "
        "sentence the model was trained on, the possessive agrees with the sentence's one name — "
        "here {name} — so it answers as it was taught. In everyday speech “{written}” could be "
        "someone else's; its task never has such a sentence.",
        "zh": "**你的句子在这里不符合任务的规则**：在 {query} 处模型更倾向于「{preferred}」"
        "（{p_preferred}），而句子里是「{written}」（{p_written}）。模型训练用的每个句子里，"
        "物主代词都和句中唯一的名字（这里是 {name}）一致，所以它是按学到的规则在回答。"
        "日常说话时「{written}」也可以指别人，但它的任务里从没有这样的句子。",
    },
    "watch_it_learn.claim.wrong_possessive": {
        "en": "**The model is wrong here:** at {query} it prefers “{preferred}” "
        "({p_preferred}), but the sentence has “{written}” ({p_written}).",
        "zh": "**模型在这里答错了**：在 {query} 处它更倾向于「{preferred}」（{p_preferred}），"
        "而句子里是「{written}」（{p_written}）。",
    },
    "watch_it_learn.claim.wrong_possessive_names": {
        "en": "**The model and your sentence differ here:** at {query} it prefers “{preferred}” "
        "({p_preferred}), but the sentence has “{written}” ({p_written}). It was never trained "
        "on such a sentence: every sentence of its task has exactly one name, and here {query} "
        "sees {count}: {names}. Nothing taught it which of them a possessive follows.",
        "zh": "**模型和你的句子在这里不一致**：在 {query} 处它更倾向于「{preferred}」"
        "（{p_preferred}），而句子里是「{written}」（{p_written}）。它从没在这样的句子上训练过："
        "任务里的每个句子都只有一个人名，而这里 {query} 能看到 {count} 个：{names}。"
        "没有任何训练告诉过它，物主代词该跟哪一个名字一致。",
    },
    "watch_it_learn.claim.wrong_possessive_place": {
        "en": "**The model is wrong here:** at {query} it prefers “{preferred}” "
        "({p_preferred}), but the sentence has “{written}” ({p_written}). It was never trained "
        "on such a sentence: in every sentence of its task the name comes first (after at most "
        "an opening such as “today” or “at home”) and a verb follows it; here the name {name} "
        "stands elsewhere.",
        "zh": "**模型在这里答错了**：在 {query} 处它更倾向于「{preferred}」（{p_preferred}），"
        "而句子里是「{written}」（{p_written}）。它从没在这样的句子上训练过：任务里的每个句子"
        "都以人名开头（前面最多有“今天”“在家里”这样的开头语），人名后面紧跟一个动词；这里的"
        "人名 {name} 不在这个位置上。",
    },
    "watch_it_learn.claim.only_female": {
        "en": "{head} looks almost only at female names: {female} of the query's attention on a "
        "female name, {male} on a male one (uniform: {chance}). Yet after male names the "
        "model's loss is only {loss}: it answers *his* although this head finds no female name "
        "there, so the absence of a female name, or another head, is what it answers from.",
        "zh": "{head} 几乎只看女性名字：查询位置的注意力有 {female} 落在女性名字上，落在男性名字上"
        "的只有 {male}（均匀水平：{chance}）。可是在男性名字之后，模型的损失也只有 {loss}："
        "这个头在那里找不到女性名字，模型照样答出「他的」——它依据的是“没有女性名字”这一点，"
        "或者别的头。",
    },
    "watch_it_learn.claim.only_male": {
        "en": "{head} looks almost only at male names: {male} of the query's attention on a male "
        "name, {female} on a female one (uniform: {chance}). Yet after female names the model's "
        "loss is only {loss}: it answers *her* although this head finds no male name there, so "
        "the absence of a male name, or another head, is what it answers from.",
        "zh": "{head} 几乎只看男性名字：查询位置的注意力有 {male} 落在男性名字上，落在女性名字上"
        "的只有 {female}（均匀水平：{chance}）。可是在女性名字之后，模型的损失也只有 {loss}："
        "这个头在那里找不到男性名字，模型照样答出「她的」——它依据的是“没有男性名字”这一点，"
        "或者别的头。",
    },
    "watch_it_learn.claim.far": {
        "en": "Even on the {count} held-out sentences whose name is {far} or more tokens before "
        "the "
        "query, {head} puts {weight} of the query's attention on it (uniform there: {chance}): "
        "a head that only looks at the previous token could not do that.",
        "zh": "即使在名字位于查询之前 {far} 个 token 或更远的 {count} 个未参与训练的句子上，"
        "{head} 仍有 {weight} 的注意力落在名字上（这些句子的均匀水平：{chance}）："
        "只看前一个 token 的头做不到这一点。",
    },
    "watch_it_learn.claim.above_guess": {
        "en": "With them off the loss, {group}, is even above a coin toss's {guess}: instead of "
        "falling back to even odds, the model keeps answering with confidence and gets the "
        "possessive right on only {right} of the held-out sentences.",
        "zh": "关掉它们之后，损失 {group} 甚至高于掷硬币的 {guess}：模型并没有退回到各占一半的"
        "猜测，而是照样很有把握地作答，却只在 {right} 的未参与训练的句子上答对物主代词。",
    },
    "watch_it_learn.claim.flat_start": {
        "en": "At step 0 this row is nearly flat, from {low} to {high}: the learner's weights "
        "start with standard deviation {std}, so every score is close to 0 and softmax spreads "
        "the attention almost evenly. The toy pages' random matrices are far larger, which is "
        "why some pairs light up there without any training.",
        "zh": "第 0 步时这一行几乎是平的，在 {low} 到 {high} 之间：这个模型的参数初始化时标准差"
        "只有 {std}，所有分数都接近 0，softmax 就把注意力几乎平均分开。前面玩具页面的随机矩阵"
        "要大得多，所以那里不经训练也会有某些词对被点亮。",
    },
}
