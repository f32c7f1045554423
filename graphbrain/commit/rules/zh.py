"""The Chinese extraction rule rows, one table a family, in priority order (see ``rules``)."""

from __future__ import annotations

from graphbrain.commit.rules.en import OCCUPATIONS_EN
from graphbrain.commit.rules.table import BLOCKED, DOING, DONE, NEG, POS, STRONG, USE, WEAK, Row
from graphbrain.nlp.text import ZH_OCCUPATIONS

_OCCUPATIONS_ZH = ZH_OCCUPATIONS
_ZH_DONE = "完成|做完|搞定|弄好|写完|修好|核对完|改完|跑完|测完|合并|合进去"
_EN_DONE = r"merged?|fixed|fix|deployed|deploy|done|closed|close|resolved|resolve|shipped|ship"

# 我 as the subject, said or carried from the clause before ("我叫王芳，是一名前端工程师", "我在字节跳动工作，
# 住在杭州"): Chinese drops a subject the previous clause already named. ``build_profile`` checks the carry.
_ZH_ME = r"(?:我|(?:(?<=[，,])|(?<=[，,]\s))(?=(?:是|在|住|生活|现在|来自|叫)))"

# fmt: off
STATUS: tuple[Row, ...] = (
    ("zh.task.blocked_by", BLOCKED, r"(?P<x>.+?)\s*被\s*(?P<y>.+?)\s*(?:卡住|阻塞|挡住|拖住|block住?)了?"),
    ("zh.task.stuck_at", BLOCKED,
     r"(?P<x>.+?)\s*(?:卡在|卡到|阻塞在)\s*(?P<y>.+?)\s*(?:上|这里|那里|这儿)?了?$"),
    ("zh.task.blocked", BLOCKED, r"(?P<x>.+?)\s*(?:被阻塞了?|阻塞了?|卡住了?)"),
    # "X 已经做完了", "PR #42 已经 merge 了": what comes before the done-verb, in its clause.
    ("zh.task.done", DONE,
     rf"(?:^|(?<=[，,；;]))\s*(?P<x>[^，,；;]+?)\s*(?:(?:已经|已|都)\s*(?:{_ZH_DONE}|{_EN_DONE})\s*了?"
     rf"|(?:{_ZH_DONE})了)\s*[了吧啦啊]?\s*(?=[，,；;。！!～~]|$)"),
    ("zh.task.done", DONE, r"(?:已经|已)?(?:完成了|做完了|搞定了|弄好了|写完了|修好了)\s*(?P<x>[^，,；;。\s].*)"),
    ("zh.task.doing", DOING,
     r"(?:开始做|开始写|开始搞|开始处理|开始弄|着手|(?:正在|在)(?:做|写|搞|处理|弄|排查|查|优化|改|修|调|跑))"
     r"\s*(?P<x>.*)"),
)

DECISION: tuple[Row, ...] = (
    ("zh.decision.decided", {}, r"(?:我们|咱们|我)?(?:最终|最后)?决定(?:了)?[，,:：]?\s*(?P<x>.+)"),
    ("zh.decision.settled", {}, r"^定了\s*[:：，,]?\s*(?P<x>.+)"),
    ("zh.decision.final_pick", USE, r"(?:最终|最后)(?:选了|选择了|选择|选定了|选定|选|采用|用)\s*(?P<x>.+)"),
    ("zh.decision.just_use", USE, r"(?:(?P<t>[^，,。；;\s]{1,12}?)\s*)?就用\s*(?P<x>.+)"),
    ("zh.decision.adopt", USE, r"(?:我们|咱们)\s*(?:采用|选用|选择了?|改用)\s*(?P<x>.+)"),
    ("zh.decision.switch", USE,
     r"(?:我们|咱们)\s*(?P<t>[^，,。；;\s]{1,12}|[A-Za-z][\w.-]{0,20})\s*(?:改用|换成|换用)\s*(?P<x>[^，,。；;]+)"),
)

GOAL: tuple[Row, ...] = (
    ("zh.goal.is", {},
     r"(?:我们的|我的|项目的?)?(?:长期|主要|最终|总体|核心)?目标(?:是|就是|[:：])\s*(?P<x>.+)"),
    ("zh.goal.by", {},
     r"(?:希望|争取|计划|打算)\s*(?:在)?\s*(?P<by>[^，,。]{1,12}?)(?:之前|以前|前)\s*(?P<x>.+)"),
)

EVENT: tuple[Row, ...] = (
    ("zh.event.released", {"kind": "release"}, r"(?:正式)?(?:发布了|上线了|发版了)\s*(?P<x>.+)"),
    ("zh.event.released_after", {"kind": "release"},
     r"^(?P<x>.+?)\s*(?:(?:已经|已|正式|终于)(?:发布|上线|发版)了?|(?:发布|上线|发版)了)[。！!]*$"),
    ("zh.event.incident_label", {"kind": "incident"}, r"^(?:线上)?(?:事故|故障)\s*[:：]\s*(?P<x>.+)"),
    ("zh.event.incident", {"kind": "incident"},
     r"(?P<x>.*(?:事故(?!复盘|报告|总结|演练)|故障(?!演练|复盘)|宕机|挂了|断电|线上问题).*)"),
    ("zh.event.milestone_label", {"kind": "milestone"}, r"^里程碑\s*[:：]\s*(?P<x>.+)"),
    ("zh.event.milestone", {"kind": "milestone"}, r"(?P<x>.*里程碑.*)"),
    ("zh.event.meeting", {"kind": "meeting"}, r"(?:和|跟|与)\s*(?P<x>.+?)\s*开(?:了)?(?:个)?会"),
    ("zh.event.meeting_label", {"kind": "meeting"}, r"^会议\s*[:：]\s*(?P<x>.+)"),
)

PREFERENCE_GUESS: tuple[Row, ...] = (
    ("zh.pref.guess", {**POS, "roles": "assistant"},
     r"你(?:好像|应该|似乎|可能|一般|通常)?(?:更|比较)?(?:喜欢|偏好|倾向于|习惯)(?:用|使用)?\s*(?P<x>.+)"),
)

PREFERENCE: tuple[Row, ...] = (
    ("zh.pref.follow", POS, r"以后(?:都|请|就)?(?:按|按照|照)\s*(?P<x>.+?)\s*(?:来|去)\s*(?P<act>.+)$"),
    ("zh.pref.from_now_on", POS,
     r"以后\s*(?P<about>[^，,。；;]{0,16}?)\s*(?:都|请|就)?(?P<neg>不要|别)?(?:按|按照|照|用|使用)\s*(?P<x>.+)"),
    ("zh.pref.from_now_on_not", NEG, r"以后(?:都|请)?(?:不要|别|不用)\s*(?P<x>.+)"),
    ("zh.pref.no_more", NEG, r"(?:别|不要|不许)再\s*(?P<x>.+)"),
    ("zh.pref.dislike", NEG, r"我(?:不喜欢|讨厌|不想要|受不了)\s*(?P<x>.+)"),
    ("zh.pref.like", POS, r"我(?:更|比较|最|还是)?(?:喜欢|偏好|倾向于|习惯)(?:用|使用)?\s*(?P<x>.+)"),
    ("zh.pref.always", POS, r"^(?:请)?(?:总是|始终|每次都|一律)\s*(?P<x>.+)"),
    # How answers / code should be, when it names a known dimension: "回答的时候请用 bullet points".
    ("zh.pref.style", {**POS, "check": "facet"},
     r"^(?:请)?(?P<about>回答|回复|答复|解释|总结|代码|注释|提交信息|commit message)(?:的时候|时)?\s*"
     r"(?:请|要|都|尽量)?\s*(?:用|使用|写得?)?\s*(?P<x>.+)"),
    ("zh.pref.i_use", {**POS, "check": "facet"}, r"我(?:一般|平时|通常|主要|一直|都)?(?:用|使用)\s*(?P<x>.+)"),
)

PROFILE: tuple[Row, ...] = (
    ("zh.profile.name", {"attribute": "name"}, rf"{_ZH_ME}(?:叫|的名字(?:是|叫))\s*(?P<x>[^，,。！!？?\s]{{1,12}})"),
    ("zh.profile.occupation", {"attribute": "occupation"},
     rf"{_ZH_ME}是(?:一名|一个|个|一位)?\s*(?P<x>[^，,。！!？?]{{0,12}}?(?:{_OCCUPATIONS_ZH}"
     rf"|(?<![A-Za-z])(?:{OCCUPATIONS_EN})(?![A-Za-z])))"),
    ("zh.profile.employer", {"attribute": "employer"},
     rf"{_ZH_ME}在\s*(?P<x>[^，,。！!？?]{{1,20}}?)\s*(?:工作|上班|任职)"),
    # "在美团做算法工程师": where, and as what.
    ("zh.profile.works_as", {"attribute": "employer", "also": "occupation"},
     rf"{_ZH_ME}在\s*(?P<x>[^，,。！!？?]{{1,20}}?)\s*(?:做|当|担任)\s*(?:一名|一个|个|一位)?\s*"
     rf"(?P<y>[^，,。！!？?]{{0,12}}?(?:{_OCCUPATIONS_ZH}))"),
    ("zh.profile.location", {"attribute": "location"},
     rf"{_ZH_ME}(?:住在|生活在|现在在|现在住在)\s*(?P<x>[^，,。！!？?\s]{{1,20}})"),
    ("zh.profile.from", {"attribute": "hometown"}, rf"{_ZH_ME}来自\s*(?P<x>[^，,。！!？?\s]{{1,20}})"),
    ("zh.profile.agent_name", {"attribute": "name", "subject": "agent"},
     r"你(?:的名字)?叫\s*(?P<x>[^，,。！!？?\s]{1,12})"),
    # "我是张伟": only when jieba tags the rest as a person name (nr), not "我是新来的".
    ("zh.profile.name_is", {"attribute": "name", "check": "zh_person"},
     r"^我是\s*(?P<x>[^，,。！!？?\s]{2,4})[。!！]?$"),
)

TASK: tuple[Row, ...] = (
    ("zh.task.todo", {}, r"^\s*(?:待办|任务|待做|todo)\s*[:：]\s*(?P<x>.+)"),
    # "需要 / 我会 …" only when a verb follows (jieba POS): "需要加测试" yes, "需要一杯咖啡" no.
    # "推荐系统的召回模块需要重写": what comes before the modal is the object.
    ("zh.task.need", {"check": "zh_verb", "keep_pre": "1"},
     r"(?:^|(?<=[，,；;]))(?P<pre>[^，,。；;]*?)(?:我们|咱们|我|你)?(?:还|也)?(?:需要|得|要做|必须)\s*(?P<x>.+)"),
    ("zh.task.will", {"check": "zh_verb"}, r"我(?:会|来|去|要)\s*(?P<x>.+)"),
    # "全文索引这周五之前要调好", "下周五前要把发布说明翻译成英文": what comes before the modal is the object.
    ("zh.task.modal", {"check": "zh_verb", "keep_pre": "1"},
     r"(?:^|(?<=[，,；;]))(?P<pre>[^，,。；;]*?)(?:还|也)?(?:需要|要|得|必须|打算|准备|计划)\s*(?P<x>.+)"),
    # A plan with a date: "支付网关下周三升级完", "华为的合同下周四签", "他说月底前能上线".
    ("zh.task.dated", {"check": "zh_dated"}, r"(?:^|(?<=[，,；;]))\s*(?P<x>[^，,；;]+)$"),
    ("zh.task.dont_forget", {"check": "zh_verb"}, r"别忘了\s*(?P<x>.+)"),
)

RETRACTION: tuple[Row, ...] = (
    ("zh.retract.wrong", STRONG,
     r"^(?:不对|不是的|错了|不是这样的?)[，,。！!.\s]*(?:其实|实际上|应该)?(?:是)?\s*(?P<x>.*)$"),
    ("zh.retract.misspoke", STRONG,
     r"^(?:我)?(?:说错了|搞错了|写错了|记错了)[，,。！!.\s]*(?:其实|实际上|应该)?(?:是)?\s*(?P<x>.*)$"),
    ("zh.retract.correction", STRONG, r"^(?:更正|纠正(?:一下)?|修正)\s*[:：，,]\s*(?P<x>.+)$"),
    ("zh.retract.not_but", STRONG, r"^(?P<pre>.*?)不是\s*(?P<wrong>[^，,。]+?)\s*[，,]?\s*而是\s*(?P<x>.+)$"),
    ("zh.retract.actually", WEAK, r"^(?:其实|实际上)[，,]?\s*(?P<x>.+)$"),
)

CORRECTION: tuple[Row, ...] = (
    ("zh.correction.use", USE, r"^(?P<x>(?:用|使用|采用|选用|改用)\s*.+)$"),
)
# fmt: on
