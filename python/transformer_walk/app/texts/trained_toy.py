"""Words of the random-or-trained switch on the toy pages (prefix ``trained_toy.``)."""

MESSAGES: dict[str, dict[str, str]] = {
    "trained_toy.switch": {"en": "Weights", "zh": "权重"},
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
        "*his* or *her*. Your sentence has none in its words: try “Anna sees the cat and "
        "loves her dog”.",
        "zh": "训练后的模型只认识 {words} 个词，并且要读到“名字……他的/她的”这样的结构。"
        "你的句子里没有：试试“安娜 看见 猫 ， 又 爱 她的 狗”。",
    },
    "trained_toy.reads": {
        "en": "Head {head} of the trained model (the head that learned to look at the name) on "
        "**{sentence}**: each row a query, each column a key; the causal mask sets the upper "
        "right to 0.",
        "zh": "训练后模型的头 {head}（学会了看名字的那个头）读 **{sentence}**："
        "每行是一个查询，每列是一个键；因果掩码让右上角的权重都为 0。",
    },
    "trained_toy.query": {"en": "query token", "zh": "查询 token"},
    "trained_toy.key": {"en": "key token", "zh": "键 token"},
    "trained_toy.weight": {"en": "attention weight", "zh": "注意力权重"},
}
