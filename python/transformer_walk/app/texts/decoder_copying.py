"""The words of the Copying-in-SmolLM2 page (``pages/decoder_copying.py``)."""

from __future__ import annotations

_OFF_START = {
    "en": "With {heads} switched off (their outputs set to 0 before $W^O$), the second copy's "
    "loss goes from {intact} to {off} nats ({change}); with as many other heads of the same "
    "layers that do not pass the test switched off instead ({draws} draws), it is {low} to "
    "{high}. ",
    "zh": "把 {heads} 关掉（它们的输出在 $W^O$ 之前置为 0），第二遍的损失从 {intact} 变为 "
    "{off} 奈特（{change}）；改为关掉相同层中同样多、未通过这个检验的别的头（随机抽取 {draws} "
    "组），损失在 {low} 到 {high} 之间。",
}

MESSAGES: dict[str, dict[str, str]] = {
    "decoder_copying.title": {
        "en": "Copying in SmolLM2: the heads that look back",
        "zh": "SmolLM2 里的复制：会往回看的头",
    },
    "decoder_copying.intro": {
        "en": "When a stretch of text comes back, what followed it the first time is a good guess "
        "for what follows it now. A head can make that guess: from the current token it looks "
        "for the place where the same token stood before and takes in the token that came "
        "next. Such a head is called an **induction head**. Here we look for them among the "
        "270 heads (30 layers × 9) of the real SmolLM2-135M, and switch them off to see what "
        "they do.",
        "zh": "一段文字再次出现时，它第一次出现时后面跟着的内容，就是对接下来内容的好猜测。"
        "一个注意力头可以做这个猜测：从当前的 token 出发，找到同一个 token 先前出现的位置，"
        "再读取紧跟在它后面的那个 token。这样的头叫作**归纳头**（induction head）。本页在真实的 "
        "SmolLM2-135M 的 270 个头（30 层 × 9 个头）中寻找它们，再把它们关掉，看看它们起什么作用。",
    },
    "decoder_copying.link": {
        "en": "Watch such a head form while a small model trains",
        "zh": "看这样的头如何在小模型的训练中形成",
    },
    "decoder_copying.random.title": {
        "en": "Random tokens, twice",
        "zh": "随机 token，重复两遍",
    },
    "decoder_copying.random.body": {
        "en": "{draws} sequences, each {length} tokens drawn at random from the vocabulary (no "
        "special token, none twice) followed by the same {length} again: {n} tokens. Nothing "
        "in the first copy can be predicted. Every token of the second copy after its first can, "
        "but only by looking back at the first copy.",
        "zh": "{draws} 个序列，每个都是从词表中随机抽取的 {length} 个 token（不含特殊 token，"
        "互不重复），后面再跟上同样的 {length} 个：共 {n} 个 token。第一遍里的 token 无法预测；"
        "第二遍里除第一个以外的每个 token 都可以预测，但只能靠回头看第一遍。",
    },
    "decoder_copying.computing": {
        "en": "Running SmolLM2 on repeated random tokens…",
        "zh": "正在让 SmolLM2 读取重复的随机 token……",
    },
    "decoder_copying.claim.loss": {
        "en": "The model's loss is {first} nats a token on the first copy and {second} on the "
        "second: the first is {ratio} times the second. The model has almost surely never seen "
        "these tokens in this order, yet it predicts the second copy by reading it off the "
        "first.",
        "zh": "模型在第一遍上的损失是每个 token {first} 奈特，在第二遍上是 {second}：前者是后者的 "
        "{ratio} 倍。模型几乎不可能见过这些 token 按这种顺序出现，它却能从第一遍里把第二遍读"
        "出来。",
    },
    "decoder_copying.scores.title": {
        "en": "Which heads look back",
        "zh": "哪些头在往回看",
    },
    "decoder_copying.scores.body": {
        "en": "A head's **prefix-matching score**: from each token of the second copy, its weight "
        "on the token just after the same token's place in the first copy, averaged over the "
        "copy and the sequences. A head that spread its weight evenly over the tokens it sees "
        "would score {chance}.",
        "zh": "一个头的**前缀匹配分数**：从第二遍中的每个 token 出发，它放在第一遍中同一个 "
        "token 之后那个位置上的权重，对整遍和所有序列取平均。如果一个头把权重平均分给它能看到"
        "的所有 token，得分是 {chance}。",
    },
    "decoder_copying.axis.layer": {"en": "layer", "zh": "层"},
    "decoder_copying.axis.head": {"en": "head", "zh": "头"},
    "decoder_copying.axis.score": {"en": "prefix-matching score", "zh": "前缀匹配分数"},
    "decoder_copying.claim.heads": {
        "en": "{count} of the {heads} heads look back this way by this test: each scores at "
        "least five times chance and five times its own score on the control sequences "
        "(first half the same, second half fresh tokens), and above 25%. The strongest, "
        "{best}, puts {score} of its weight on the token to copy; on the control sequences it "
        "puts {control} on the same positions, and chance is {chance}. Where a head looks is "
        "measured here; what it writes is tested below, by switching it off.",
        "zh": "按这个检验，{heads} 个头中有 {count} 个在做前缀匹配：每个的分数都至少是平均分配"
        "时的五倍，也至少是它在对照序列（前一半相同、后一半换成新的 token）上的分数的五倍，"
        "并且高于 25%。最强的 {best} 把 {score} 的权重放在要复制的 token 上；在对照序列上，"
        "它放在同样位置上的只有 {control}，平均分配则是 {chance}。这里量的是一个头往哪里看；"
        "它写出了什么，下面通过把它关掉来检验。",
    },
    "decoder_copying.table.head": {"en": "head", "zh": "头"},
    "decoder_copying.table.score": {
        "en": "score, repeated",
        "zh": "分数（重复序列）",
    },
    "decoder_copying.table.control": {
        "en": "score, control",
        "zh": "分数（对照序列）",
    },
    "decoder_copying.off.title": {
        "en": "Switching them off",
        "zh": "把它们关掉",
    },
    "decoder_copying.off.count": {
        "en": "Heads to switch off (the highest scores first)",
        "zh": "要关掉的头数（按分数从高到低）",
    },
    "decoder_copying.off.body": {
        "en": "On {held} new sequences, not the ones the heads were found on: the second copy's "
        "loss intact, with the {k} highest-scoring heads switched off, and with {k} other heads "
        "of the same layers switched off instead, drawn {draws} times from the heads that do "
        "not pass the test above (a control must not do the work it is a control for).",
        "zh": "在 {held} 个新序列上（不是找出这些头时用的序列）：第二遍的损失——什么都不关时、"
        "关掉分数最高的 {k} 个头时，以及改为关掉相同层中另外 {k} 个头时（从未通过上面检验的"
        "头中随机抽取 {draws} 次：对照不能做它要对照的那份工作）。",
    },
    "decoder_copying.off.computing": {
        "en": "Switching heads off…",
        "zh": "正在关掉一些头……",
    },
    "decoder_copying.off.intact": {"en": "nothing switched off", "zh": "什么都不关"},
    "decoder_copying.off.top": {"en": "{heads} off", "zh": "关掉 {heads}"},
    "decoder_copying.off.control": {
        "en": "control {i}: {heads} off",
        "zh": "对照 {i}：关掉 {heads}",
    },
    "decoder_copying.off.axis": {
        "en": "loss on the second copy (nats)",
        "zh": "第二遍上的损失（奈特）",
    },
    "decoder_copying.off.guess": {
        "en": "a uniform guess over {count} tokens",
        "zh": "在 {count} 个 token 中均匀随机地猜",
    },
    "decoder_copying.claim.off.rises_most": {
        "en": _OFF_START["en"] + "It rises, more than with any control set: these heads do more "
        "of the copying than as many other heads of their layers.",
        "zh": _OFF_START["zh"] + "损失上升，而且比每一组对照都高：这些头承担的复制工作，比它们"
        "所在层里同样多的别的头更多。",
    },
    "decoder_copying.claim.off.rises_least": {
        "en": _OFF_START["en"] + "It rises, but less than with any control set: by this test "
        "these heads matter less here than other heads of their layers.",
        "zh": _OFF_START["zh"] + "损失上升，但比每一组对照都低：按这个检验，这些头在这里的作用"
        "比同层别的头还小。",
    },
    "decoder_copying.claim.off.falls_least": {
        "en": _OFF_START["en"] + "It falls, but less than with any control set.",
        "zh": _OFF_START["zh"] + "损失下降，但比每一组对照降得都少。",
    },
    "decoder_copying.claim.off.falls_most": {
        "en": _OFF_START["en"] + "It falls, further than with any control set: on this text the "
        "model predicts the second copy better without these heads.",
        "zh": _OFF_START["zh"] + "损失反而下降，而且比每一组对照降得都多：在这段文字上，没有"
        "这些头，模型对第二遍预测得更好。",
    },
    "decoder_copying.claim.off.among": {
        "en": _OFF_START["en"] + "That is among the controls: by this test these heads are not "
        "set apart from other heads of their layers.",
        "zh": _OFF_START["zh"] + "它落在对照的范围里：按这个检验，这些头和同层别的头分不出差别。",
    },
    "decoder_copying.claim.off.unchanged": {
        "en": _OFF_START["en"] + "To two places, the loss does not change.",
        "zh": _OFF_START["zh"] + "保留两位小数时，损失没有变化。",
    },
    "decoder_copying.claim.sink": {
        "en": "From the tokens after the first, this head puts on average {share} of its weight "
        "on {first}, the first token. Heads often rest weight they do not need on the first "
        "position (an *attention sink*): that column says where the weight is parked, not "
        "that the word matters.",
        "zh": "从第一个之后的各个 token 出发，这个头平均把 {share} 的权重放在第一个 token {first} "
        "上。注意力头常常把用不上的权重停放在第一个位置（所谓*注意力汇聚点*，attention sink）："
        "这一列说明权重停在哪里，并不说明这个词重要。",
    },
    "decoder_copying.sentence.few": {
        "en": "Only {k} token of the second copy is scored here; a longer sentence gives more.",
        "zh": "这里第二遍只有 {k} 个 token 可以计分；句子长一些，就能看到更多。",
    },
    "decoder_copying.sentence.title": {
        "en": "On your sentence",
        "zh": "在你的句子上",
    },
    "decoder_copying.sentence.body": {
        "en": "Your sentence and a line break ({n} tokens), then the same {n} tokens again. "
        "First: where the strongest head, {head}, looks from each token (rows look at columns). "
        "Then: the probability the model gives each token of the second copy after its first, "
        "intact, with the same {k} heads switched off, and with the control heads switched off "
        "(their average over the {draws} draws). Where a token occurs twice in your sentence, "
        "its earlier place is not one position, and a head may split its weight between them.",
        "zh": "你的句子加一个换行（{n} 个 token），后面再跟上同样的 {n} 个 token。"
        "第一张图：最强的头 {head} 从每个 token 出发看向哪里（行看向列）。第二张图：模型给第二遍中"
        "第一个之后每个 token 的概率——完整的模型、关掉同样 {k} 个头时，以及关掉对照头时（{draws} "
        "次抽取的平均）。句子里出现两次的 token，它“先前的位置”不止一个，头可能把权重分给几处。",
    },
    "decoder_copying.sentence.too_long": {
        "en": "Your text has {n} tokens with the line break; this section repeats its first "
        "{kept} tokens and a line break.",
        "zh": "你的文本加上换行有 {n} 个 token；这一节只重复它的前 {kept} 个 token 加一个换行。",
    },
    "decoder_copying.sentence.computing": {
        "en": "Running your sentence twice…",
        "zh": "正在把你的句子运行两遍……",
    },
    "decoder_copying.axis.query": {"en": "from (query)", "zh": "查询位置（从）"},
    "decoder_copying.axis.key": {"en": "to (key)", "zh": "键位置（到）"},
    "decoder_copying.axis.weight": {"en": "weight", "zh": "权重"},
    "decoder_copying.axis.token": {
        "en": "token of the second copy",
        "zh": "第二遍中的 token",
    },
    "decoder_copying.axis.prob": {
        "en": "probability of that token",
        "zh": "这个 token 的概率",
    },
    "decoder_copying.series.intact": {"en": "intact", "zh": "完整模型"},
    "decoder_copying.series.off": {"en": "{heads} off", "zh": "关掉 {heads}"},
    "decoder_copying.series.control": {
        "en": "control heads off (average)",
        "zh": "关掉对照头（平均）",
    },
    "decoder_copying.caveat": {
        "en": "On random tokens, looking back is the only way to predict the second copy. A "
        "sentence can also be predicted from the language itself, so there other heads and the "
        "MLPs can stand in for the copying heads. A high score says where a head puts its "
        "weight, not everything the head does.",
        "zh": "在随机 token 上，往回看是预测第二遍的唯一办法。而一个句子还可以靠语言本身来预测，"
        "所以在句子上，别的头和 MLP 可以顶替这些归纳头。分数高说明一个头把权重放在哪里，"
        "并不是这个头所做的全部。",
    },
    "decoder_copying.solved": {
        "en": "A real model's copying can be found by a score any learner can compute from the "
        "attention weights, and tested by switching the heads off beside controls.",
        "zh": "真实模型中的复制可以用一个从注意力权重就能算出的分数找出来，再通过把头关掉、"
        "并与对照比较来检验。",
    },
    "decoder_copying.hurts": {
        "en": "Random tokens are not text: a head that copies them may do other work on real "
        "sentences, and other parts may copy too.",
        "zh": "随机 token 不是真正的文本：会复制它们的归纳头在真实的句子上可能还做别的事，"
        "其他部分也可能在复制。",
    },
}
