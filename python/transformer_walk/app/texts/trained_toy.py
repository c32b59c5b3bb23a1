"""Words of the random-or-trained switch on the toy pages (prefix ``trained_toy.``)."""

MESSAGES: dict[str, dict[str, str]] = {
    "trained_toy.switch": {"en": "Model parameters", "zh": "模型参数"},
    "trained_toy.switch_help": {
        "en": "Random: the toy model above, never trained. Trained: the small Transformer of the "
        "Watch-it-learn page, trained on sentences where a possessive must find its name.",
        "zh": "随机：上面的玩具模型，从未训练。训练后：“看它学会”页面里的小 Transformer，"
        "它在“物主代词必须找到名字”的句子上训练过。",
    },
    "trained_toy.random": {"en": "random (the toy above)", "zh": "随机（上面的玩具模型）"},
    "trained_toy.trained": {"en": "trained on the possessive task", "zh": "在物主代词任务上训练后"},
    "trained_toy.more": {
        "en": "How it was trained, step by step: Watch it learn",
        "zh": "它是怎样一步步训练出来的：看它学会",
    },
    "trained_toy.unreadable": {
        "en": "The trained model knows {words} words and reads a name followed, later, by "
        "*his* or *her*. Your sentence, in its words, has no name followed by *his* or *her*: "
        "try “Anna sees the cat and loves her dog”.",
        "zh": "训练后的模型只认识 {words} 个词，并且要读到“名字……他的/她的”这样的结构。"
        "用它认识的词来看，你的句子里没有这样的结构：试试“安娜看见猫，又爱她的狗”。",
    },
    "trained_toy.reads": {
        "en": "Head {head} of the trained model (the head that, on held-out sentences of its task, "
        "put the most weight on the name) on "
        "**{sentence}**: each row a query, each column a key. The cells above the diagonal "
        "are masked: the causal mask sets their weights to 0.",
        "zh": "训练后模型的头 {head}（在其任务的留出句子上，放在名字上的权重最大的那个头）"
        "读 **{sentence}**："
        "每行是一个查询，每列是一个键。对角线以上的格子被因果遮罩遮住，权重都为 0。",
    },
    "trained_toy.where": {
        "en": "Where to look: this model is causal, so the possessive {possessive} is predicted "
        "at the word before it, and the looking back happens in the row of {query} — not in "
        "the row of the possessive itself, as in the article's encoder example. The loss only "
        "ever scored that row, so the other rows mean nothing here. That row, as bars:",
        "zh": "该看哪里：这是一个因果模型，物主代词 {possessive} 是在它前一个词的位置上预测的，"
        "所以“回头看”发生在 {query} 这一行，而不是像文章里编码器的例子那样发生在物主代词自己"
        "那一行。训练时损失只给这一行打过分，其他行在这里没有意义。把这一行画成柱状图：",
    },
    "trained_toy.query": {"en": "query token", "zh": "查询 token"},
    "trained_toy.key": {"en": "key token", "zh": "键 token"},
    "trained_toy.weight": {"en": "attention weight", "zh": "注意力权重"},
    # --- which heads look at the name (topics.learning.name_head_claims.heads_on_name_claim) ---
    "trained_toy.claim.heads_on_name": {
        "en": "From {query}, {count} of the {total} heads {count:puts|put} at least {times} times "
        "as much weight on the name {name} as on the other tokens it sees, on average: "
        "{heads}. The control — the weight spread evenly over the {visible} tokens {query} "
        "sees — gives each {chance}.",
        "zh": "从 {query} 出发，{total} 个头中有 {count} 个放在名字 {name} 上的权重，至少是"
        "它看到的其他 token 平均权重的 {times} 倍：{heads}。对照：把权重平均分给 {query} "
        "看到的 {visible} 个 token，每个得到 {chance}。",
    },
    "trained_toy.claim.no_head_on_name": {
        "en": "From {query}, none of the {total} heads puts {times} times as much weight on the "
        "name {name} as on the other tokens it sees, on average: the most on the name is "
        "{head}'s {weight}. The control — the weight spread evenly over the {visible} tokens "
        "{query} sees — gives each {chance}.",
        "zh": "从 {query} 出发，{total} 个头放在名字 {name} 上的权重都不到它看到的其他 token "
        "平均权重的 {times} 倍：名字得到最多的是 {head} 的 {weight}。对照：把权重平均分给 "
        "{query} 看到的 {visible} 个 token，每个得到 {chance}。",
    },
}
