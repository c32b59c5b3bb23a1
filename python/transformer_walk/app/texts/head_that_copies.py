"""Words of the A-head-that-copies page (prefix ``head_that_copies.``)."""

MESSAGES: dict[str, dict[str, str]] = {
    "head_that_copies.title": {
        "en": "A head that copies: an induction head forms",
        "zh": "会复制的头：归纳头是怎样形成的",
    },
    "head_that_copies.intro": {
        "en": "Text repeats itself: a name, a phrase, a line of code comes back, and what followed "
        "it the first time is a good guess for what follows it now. Here a small model with "
        "**attention only** (no feed-forward layers: the heads are all there is) is trained on "
        "random tokens in which a random stretch comes back later. It can predict the second "
        "copy only by finding the earlier one. Two heads in a row do it: in layer 1 a "
        "*previous-token head* writes into each position which token stood just before it; in "
        "layer 2 an *induction head* uses that to find the position right after the earlier "
        "occurrence of the current token, and copies its token. Nobody wires them up: they "
        "form during training, and you can watch when.",
        "zh": "文本常常重复自己：一个名字、一个短语、一行代码会再次出现，而它第一次出现时后面跟着的"
        "内容，正是现在后面最可能出现的内容。这里，一个**只有注意力层**的小模型（没有前馈层：能看的"
        "只有注意力头）在随机 token 序列上训练，序列中有一段随机片段会在后面再出现一次。"
        "只有找到前面那一段，才能预测第二段。完成这件事要两个头接力：第 1 层的"
        "「前一个 token 头」把每个位置前面那个 token 写进该位置；第 2 层的「归纳头」借助它，"
        "找到当前 token 上一次出现位置的下一个位置，并把那里的 token 复制过来。"
        "没有人把它们连起来：它们在训练中形成——你可以看到是在哪一步。",
    },
    "head_that_copies.model": {
        "en": "The model: decoder-only, attention only, {layers} layers × {h} heads, "
        "$d_{{\\text{{model}}}}$ = {d_model}, $d_k$ = {d_k}, learned positions, a vocabulary "
        "of {vocab} tokens; {params} parameters. Trained {steps} steps of AdamW (batch {batch}, "
        "learning rate {lr}) on {backend}: {seconds} s{disk}.",
        "zh": "模型：仅解码器结构，只有注意力层，{layers} 层 × {h} 个头，"
        "$d_{{\\text{{model}}}}$ = {d_model}，$d_k$ = {d_k}，可学习的位置向量，词表 {vocab} 个 "
        "token；共 {params} 个参数。用 AdamW 训练 {steps} 步（批大小 {batch}，学习率 {lr}），"
        "后端 {backend}：训练用时 {seconds} 秒{disk}。",
    },
    "head_that_copies.from_disk": {
        "en": " (trained earlier; read back from this server's disk cache)",
        "zh": "（本次直接读取本服务器磁盘缓存中的结果）",
    },
    "head_that_copies.progress": {
        "en": "Training: step {step} of {steps}…",
        "zh": "正在训练：第 {step} / {steps} 步……",
    },
    "head_that_copies.failed": {
        "en": "This run did not form an induction head (the best copying head is in layer 1), so "
        "there is nothing to show. Training is seeded; this should not happen on this machine "
        "— please report it.",
        "zh": "这次训练没有形成归纳头（复制得最好的头在第 1 层），所以没有可展示的内容。"
        "训练是固定种子的，在这台机器上不应出现这种情况——请报告这个问题。",
    },
    # --- the task ---------------------------------------------------------------------------
    "head_that_copies.task.title": {"en": "The task", "zh": "任务"},
    "head_that_copies.task.body": {
        "en": "Each sequence has n = {n} tokens: a start token, then tokens drawn at random from "
        "{vocab} — except that a stretch of {min_seg} to {max_seg} tokens comes back after a "
        "random gap. Its place, its length and the gap all change from sequence to sequence, so "
        "no fixed distance finds the answer. The loss is taken only inside the second copy, "
        "where each next token can be read off the first copy and from nothing else. One "
        "held-out sequence (the **first copy** and the **second copy** marked):",
        "zh": "每个序列有 n = {n} 个 token：一个起始 token，其余都从 {vocab} 个 token 中随机抽取"
        "——只是其中有一段 {min_seg} 到 {max_seg} 个 token 的片段，隔一段随机的距离后再出现一次。"
        "片段的位置、长度和间隔每个序列都不同，所以不存在一个固定的距离可以找到答案。"
        "损失只在第二段里计算：那里每一个下一个 token 都能、也只能从第一段读出来。"
        "下面是一个未参与训练的序列（标出了**第一段**和**第二段**）：",
    },
    "head_that_copies.task.first": {"en": "first copy", "zh": "第一段"},
    "head_that_copies.task.second": {"en": "second copy", "zh": "第二段"},
    # --- the loss --------------------------------------------------------------------------
    "head_that_copies.loss.title": {
        "en": "The loss on the second copy drops in a jump",
        "zh": "第二段上的损失突然下降",
    },
    "head_that_copies.loss.body": {
        "en": "Cross-entropy at each checkpoint on {count} held-out sequences: inside the second "
        "copy (where copying helps) and inside the first copy (where nothing can be known: "
        "guessing among {choices} tokens costs ln {choices} ≈ {guess}). The slider picks a "
        "checkpoint for the charts that follow it.",
        "zh": "在 {count} 个未参与训练的序列上，每个检查点的交叉熵：第二段里（复制有用的地方）"
        "和第一段里（什么都无法预知：在 {choices} 个 token 中瞎猜的代价是 "
        "ln {choices} ≈ {guess}）。"
        "滑块选择一个检查点，后面跟着滑块变化的图都显示那一步的模型。",
    },
    "head_that_copies.step": {"en": "checkpoint (training step)", "zh": "检查点（训练步数）"},
    "head_that_copies.loss.axis_step": {"en": "training step", "zh": "训练步数"},
    "head_that_copies.loss.axis_loss": {"en": "loss", "zh": "损失"},
    "head_that_copies.curve": {"en": "curve", "zh": "曲线"},
    "head_that_copies.loss.second": {"en": "second copy", "zh": "第二段"},
    "head_that_copies.loss.first": {"en": "first copy", "zh": "第一段"},
    "head_that_copies.loss.guess": {"en": "guessing: ln {choices}", "zh": "瞎猜：ln {choices}"},
    # --- scores ----------------------------------------------------------------------------
    "head_that_copies.scores.title": {
        "en": "What the heads do, checkpoint by checkpoint",
        "zh": "各个头在做什么：逐个检查点来看",
    },
    "head_that_copies.scores.body": {
        "en": "**Prefix matching**: the mean weight from each token of the second copy on the "
        "position just after the same token in the first copy — where an induction head looks. "
        "**Previous token**: the mean weight from each position on the one before it. Beside "
        "them, the same prefix-matching score on sequences whose second copy was replaced by "
        "fresh tokens (nothing to find there), and the level of a head that spreads its "
        "attention evenly.",
        "zh": "**前缀匹配**：第二段中每个 token 放在“第一段里同一个 token 的下一个位置”上的平均"
        "权重——归纳头看的正是那里。**前一个 token**：每个位置放在它前一个位置上的平均权重。"
        "作为对照：把第二段换成新抽的 token（那里没有可找的东西）后的同一前缀匹配分数，"
        "以及一个把注意力平均分配的头的均匀水平。",
    },
    "head_that_copies.scores.prefix_axis": {"en": "prefix matching", "zh": "前缀匹配"},
    "head_that_copies.scores.previous_axis": {"en": "previous token", "zh": "前一个 token"},
    "head_that_copies.scores.uniform": {"en": "uniform", "zh": "均匀水平"},
    "head_that_copies.scores.no_repeat": {
        "en": "{head}, no repeat (control)",
        "zh": "{head}，无重复（对照）",
    },
    "head_that_copies.matrix.title": {
        "en": "Attention at step {step} on the sequence above",
        "zh": "第 {step} 步时，上面那个序列上的注意力",
    },
    "head_that_copies.matrix.body": {
        "en": "Rows are queries, columns keys, positions counted from 1 with the token id after "
        "the dot. An induction head's rows in the second copy light up one column after the "
        "first copy's diagonal; a previous-token head's light up just left of the diagonal.",
        "zh": "行是查询，列是键；位置从 1 数起，点后是 token 的编号。归纳头在第二段的各行会在"
        "“第一段对角线右移一格”处亮起；前一个 token 头的各行则在对角线左侧紧邻处亮起。",
    },
    "head_that_copies.matrix.induction": {"en": "{head}: induction head", "zh": "{head}：归纳头"},
    "head_that_copies.matrix.previous": {
        "en": "{head}: previous-token head",
        "zh": "{head}：前一个 token 头",
    },
    "head_that_copies.matrix.query": {"en": "query", "zh": "查询"},
    "head_that_copies.matrix.key": {"en": "key", "zh": "键"},
    "head_that_copies.matrix.weight": {"en": "attention weight", "zh": "注意力权重"},
    # --- switching heads off ---------------------------------------------------------------
    "head_that_copies.off.title": {"en": "Switch heads off", "zh": "关掉注意力头"},
    "head_that_copies.off.body": {
        "en": "The scores suggest which heads do the work; switching them off (their output set "
        "to zero before $W^O$) tests it. The loss on the second copy of the trained model:",
        "zh": "分数只提示了哪些头在干活；把它们关掉（在乘 $W^O$ 之前把输出置零）才是检验。"
        "训练后模型在第二段上的损失：",
    },
    "head_that_copies.off.axis": {"en": "loss on the second copy", "zh": "第二段上的损失"},
    "head_that_copies.off.intact": {"en": "all heads on", "zh": "所有头都开着"},
    "head_that_copies.off.untrained": {"en": "untrained (step 0)", "zh": "未训练（第 0 步）"},
    "head_that_copies.off.one": {"en": "{head} off", "zh": "关掉 {head}"},
    "head_that_copies.off.layer": {"en": "layer {layer} off", "zh": "关掉第 {layer} 层"},
    "head_that_copies.caveat": {
        "en": "The names “previous-token head” and “induction head” describe what these heads "
        "were measured doing on this task; they are not labels the model carries. In a real "
        "language model many heads share such jobs, and a head may do several.",
        "zh": "“前一个 token 头”和“归纳头”这两个名字，描述的是在这个任务上测得的行为，"
        "而不是模型自带的标签。在真实的语言模型里，这类工作往往由许多头分担，一个头也可能同时做"
        "几件事。",
    },
    "head_that_copies.real": {
        "en": "Look for the same kind of head among the 270 heads of the real SmolLM2",
        "zh": "在真实的 SmolLM2 的 270 个头中寻找同样的头",
    },
    # --- claims ----------------------------------------------------------------------------
    "head_that_copies.claim.jump": {
        "en": "The loss on the second copy fell from {untrained} to {final}; its steepest drop "
        "came at step {jump}. The prefix-matching score of {head} was half-way up at step "
        "{rise}: the loss falls when the head forms.",
        "zh": "第二段上的损失从 {untrained} 降到 {final}，下降最陡的地方在第 {jump} 步。"
        "{head} 的前缀匹配分数在第 {rise} 步升到一半：损失下降之时，正是这个头形成之时。",
    },
    "head_that_copies.claim.prefix": {
        "en": "{head} ends with {score} of its attention on the position after the earlier "
        "occurrence (uniform: {chance}); on sequences without a repeat the same positions get "
        "{control} — it matches content, not a distance.",
        "zh": "{head} 最终把 {score} 的注意力放在“上一次出现位置的下一个位置”上（均匀水平："
        "{chance}）；在没有重复的序列上，同样的位置只得到 {control}——它匹配的是内容，"
        "而不是某个固定距离。",
    },
    "head_that_copies.claim.prefix_heads": {
        "en": "{count} heads end with at least {times} times the uniform share ({chance}) of their "
        "attention on the position after the earlier occurrence: {heads}. On sequences without a "
        "repeat the same positions get at most {control} — they match content, not a distance.",
        "zh": "有 {count} 个头最终放在“上一次出现位置的下一个位置”上的注意力，都至少是均匀水平"
        "（{chance}）的 {times} 倍：{heads}。在没有重复的序列上，同样的位置最多只得到 {control}"
        "——它们匹配的是内容，而不是某个固定距离。",
    },
    "head_that_copies.claim.previous": {
        "en": "{head} puts {score} of each position's attention on the position just before it "
        "(uniform: {chance}).",
        "zh": "{head} 把每个位置 {score} 的注意力放在紧挨着的前一个位置上（均匀水平：{chance}）。",
    },
    "head_that_copies.claim.previous_off": {
        "en": "Switching off the previous-token head {head} brings the loss on the second copy "
        "back to {off} (untrained: {untrained}; all heads on: {intact}); switching off the "
        "other head of its layer, {other}, instead: {other_off}. Without it, an induction head "
        "has nothing to match.",
        "zh": "关掉前一个 token 头 {head}，第二段上的损失回到 {off}（未训练：{untrained}；"
        "所有头都开着：{intact}）；换成关掉同一层的另一个头 {other}：{other_off}。"
        "没有它，归纳头就没有东西可以匹配。",
    },
    "head_that_copies.claim.shared": {
        "en": "The copying is shared: with {head} off the loss is {head_off}, with {other} off "
        "{other_off} (all heads on: {intact}) — but with both off, {layer_off}. Either head "
        "alone can do the job.",
        "zh": "复制的工作是分担的：关掉 {head}，损失是 {head_off}；关掉 {other}，是 {other_off}"
        "（所有头都开着：{intact}）——但两个都关掉，损失是 {layer_off}。只留下其中"
        "任何一个头，也能完成这件事。",
    },
    "head_that_copies.claim.alone": {
        "en": "Switching off {head} brings the loss back to {head_off} (all heads on: {intact}); "
        "switching off {other} instead: {other_off}.",
        "zh": "关掉 {head}，损失回到 {head_off}（所有头都开着：{intact}）；换成关掉 {other}："
        "{other_off}。",
    },
    "head_that_copies.claim.first_copy": {
        "en": "On the first copy, where nothing can be known, the loss rose from {untrained} to "
        "{final}: the trained model expects a repeat even where there is none, and is "
        "confidently wrong there.",
        "zh": "在第一段里（什么都无法预知），损失从 {untrained} 升到了 {final}：训练后的模型在没有"
        "重复的地方也期待重复，于是自信地猜错。",
    },
}
