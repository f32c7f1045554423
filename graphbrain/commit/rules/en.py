"""The English extraction rule rows, one table a family, in priority order (see ``rules``)."""

from __future__ import annotations

from graphbrain.commit.rules.table import BLOCKED, DOING, DONE, NEG, POS, STRONG, USE, WEAK, Row
from graphbrain.nlp.chars import HAN_CLASS

# An English profile value: up to the next clause ("my name is Li Wei and I'm …" → "Li Wei").
_EN_VALUE = r"(?P<x>[^,.;!?]+?)(?=\s+(?:and|but|so|because|who|which|where)\b|\s*[,.;!?]|$)"
# Also named in Chinese text ("我是一名 backend engineer").
OCCUPATIONS_EN = (
    r"engineer|developer|dev|designer|manager|scientist|researcher|student|teacher|professor|writer|analyst"
    r"|architect|consultant|founder|programmer|administrator|admin|sre|pm|lead|intern|freelancer"
)
_VERSION = r"(?:\bv\d+(?:\.\d+)*|\b\d+\.\d+(?:\.\d+)*)(?:-[\w.]+)?"
_TASK_VERBS_EN = (
    r"add|write|fix|implement|create|build|refactor|update|remove|delete|set up|setup|document|test|migrate"
    r"|support|rename|move|split|merge|clean up|make|improve|optimi[sz]e|investigate|look into|check|review"
    r"|deploy|prepare|draft|finish"
)

# fmt: off
STATUS: tuple[Row, ...] = (
    ("en.task.blocked_by", BLOCKED,
     r"^(?P<x>.+?)\s+(?:is|are|was|were|got|'s|has been|have been)\s+(?:still\s+)?(?:blocked|stuck)"
     r"\s+(?:on|by)\s+(?P<y>.+)"),
    ("en.task.blocked_on", BLOCKED,
     r"\b(?:i'm|we're|i am|we are)\s+(?:still\s+)?(?:blocked|stuck)\s+(?:on|by)\s+(?P<y>.+)"),
    ("en.task.blocked_on", BLOCKED, r"^(?:still\s+)?(?:blocked|stuck)\s+(?:on|by)\s+(?P<y>.+)"),
    ("en.task.blocked", BLOCKED, r"^(?P<x>.+?)\s+(?:is|are|was|'s)\s+(?:still\s+)?blocked\b"),
    ("en.task.blocked", BLOCKED, r"^blocked\s*[:：]\s*(?P<x>.+)"),
    ("en.task.checked", DONE, r"^\s*[-*]\s*\[[xX]\]\s*(?P<x>.+)"),
    ("en.task.done_with", DONE,
     r"\b(?:(?:i'm|we're|i am|we are)\s+(?:all\s+|finally\s+)?)?done\s+with\s+(?P<x>.+)"),
    ("en.task.done", DONE, r"^(?:done|finished|completed)\s*[:：-]\s*(?P<x>.+)"),
    ("en.task.finished", DONE, r"\b(?:finished|completed|wrapped up|closed out)\s+(?P<x>.+)"),
    # "fixed the login bug", "revoked the leaked token": the verb is part of the work.
    ("en.task.did", DONE, r"^(?:i\s+|we\s+|just\s+)?(?P<x>(?:fixed|resolved|revoked|rotated)\s+.+)"),
    ("en.task.is_done", DONE,
     r"^(?P<x>.+?)\s+(?:is|are|was|were|has been|have been|'s)\s+(?:now\s+|finally\s+|all\s+)?"
     r"(?:done|finished|complete|completed|merged|fixed|resolved)\b"),
    ("en.task.doing", DOING,
     r"\b(?:i'm|we're|i am|we are)\s+(?:now\s+|currently\s+|still\s+)?(?:working on|starting on|tackling)"
     r"\s+(?P<x>.+)"),
    ("en.task.doing", DOING,
     r"\b(?:i|we)\s+(?:just\s+)?(?:started|began)\s+(?:working\s+on\s+|on\s+|with\s+)?(?P<x>.+)"),
    ("en.task.doing", DOING, r"^(?:now\s+)?(?:working on|starting on|started on|started|began)\s+(?P<x>.+)"),
)

DECISION: tuple[Row, ...] = (
    ("en.decision.decided", {},
     r"\b(?:we|i)(?:\s+have|'ve)?\s+(?:finally\s+|just\s+)?decided\s+(?:to\s+|that\s+|on\s+)?(?P<x>.+)"),
    ("en.decision.label", {}, r"^decision\s*[:：]\s*(?P<x>.+)"),
    ("en.decision.lets_use", USE,
     r"\blet's\s+(?:just\s+)?(?:go with|use|pick|choose|stick with|switch to|adopt|go for)\s+(?P<x>.+)"),
    ("en.decision.will_use", USE,
     r"\b(?:we|i)(?:'ll| will| are going to|'re going to| am going to|'m going to)\s+(?:just\s+)?"
     r"(?:use|go with|stick with|switch to|adopt)\s+(?P<x>.+)"),
    ("en.decision.going_with", USE, r"\b(?:we're|we are|i'm|i am)\s+going\s+with\s+(?P<x>.+)"),
    ("en.decision.switching", USE,
     r"\b(?:we're|we are)\s+(?:switching|moving|migrating)\s+(?:(?:it|them|this|that)\s+)?(?:over\s+)?to\s+(?P<x>.+)"),
    # "let's move the PDFs to S3": a change of how things are done is a decision (with a deadline, a task too).
    ("en.decision.lets_change", {},
     r"\blet's\s+(?P<x>(?:move|migrate|switch|drop|replace|remove|deprecate|rename|split|merge|stop|freeze)\b.+)"),
    ("en.decision.chose", USE,
     r"\b(?:we|i)\s+(?:chose|picked|selected|settled on|went with|opted for)\s+(?P<x>.+)"),
)

GOAL: tuple[Row, ...] = (
    ("en.goal.is", {},
     r"\b(?:our|my|the)\s+(?:main\s+|long[- ]term\s+|primary\s+|big\s+|ultimate\s+|overall\s+)?goal\s+"
     r"(?:for\s+\S+\s+)?(?:is|:)\s*(?:to\s+)?(?P<x>.+)"),
    ("en.goal.label", {}, r"^goal\s*[:：]\s*(?P<x>.+)"),
    ("en.goal.by", {},
     r"\b(?:we|i)\s+(?:want|aim|plan|hope|intend)\s+to\s+(?P<x>.+?)\s+by\s+"
     r"(?P<by>(?:the\s+)?(?:end\s+of\s+)?[\w -]{2,30}?|\d{4}-\d{1,2}-\d{1,2})\s*$"),
    ("en.goal.aim", {}, r"\b(?:we|i)\s+aim\s+to\s+(?P<x>.+)"),
)

EVENT: tuple[Row, ...] = (
    ("en.event.released", {"kind": "release"}, r"\b(?:released|shipped|launched|published|cut)\s+(?P<x>.+)"),
    ("en.event.version_out", {"kind": "release"},
     rf"(?P<x>(?:\b[\w.-]+\s+)?{_VERSION})\s+(?:is\s+|was\s+|has\s+been\s+|got\s+)?"
     r"(?:released|shipped|out|live|launched)\b"),
    ("en.event.release_label", {"kind": "release"}, r"^release\s*[:：]\s*(?P<x>.+)"),
    ("en.event.incident_label", {"kind": "incident"},
     r"^(?:incident|outage|postmortem|post-mortem)\s*[:：]\s*(?P<x>.+)"),
    ("en.event.outage", {"kind": "incident"},
     r"(?P<x>.*\b(?:outage|incident|went down|is down|was down)\b.*)"),
    ("en.event.milestone_label", {"kind": "milestone"}, r"^milestone\s*[:：]\s*(?P<x>.+)"),
    ("en.event.milestone", {"kind": "milestone"},
     r"\b(?:reached|hit|completed|passed)\s+(?:the\s+|a\s+|our\s+)?(?P<x>(?:[\w.-]+\s+){0,4}milestone(?:\s+[\w.-]+)?)"),
    ("en.event.meeting_label", {"kind": "meeting"}, r"^meeting\s*[:：]\s*(?P<x>.+)"),
    ("en.event.meeting", {"kind": "meeting"}, r"\b(?:meeting|call|sync)\s+with\s+(?P<x>.+)"),
    ("en.event.met", {"kind": "meeting"}, r"\bwe\s+met\s+with\s+(?P<x>.+)"),
)

PREFERENCE_GUESS: tuple[Row, ...] = (
    # The assistant's guesses about the user: extracted so that the gate can drop them with a reason.
    ("en.pref.guess", {**POS, "roles": "assistant"},
     r"\byou\s+(?:seem\s+to\s+|probably\s+|might\s+|usually\s+|always\s+)?(?:prefer|like|want|enjoy)\s+(?P<x>.+)"),
)

PREFERENCE: tuple[Row, ...] = (
    ("en.pref.prefer", POS,
     r"\bi(?:'d| would)?\s+(?:really\s+|much\s+|generally\s+|always\s+)?prefer\s+(?P<x>.+)"),
    ("en.pref.dislike", NEG, r"\bi\s+(?:really\s+)?(?:don't|do not)\s+(?:like|want)\s+(?P<x>.+)"),
    ("en.pref.hate", NEG, r"\bi\s+(?:really\s+)?(?:hate|dislike|can't stand)\s+(?P<x>.+)"),
    ("en.pref.like", POS, r"\bi\s+(?:really\s+)?(?:like|love)\s+(?P<x>.+)"),
    ("en.pref.from_now_on", POS,
     r"\b(?:from now on|going forward|in (?:the )?future)[,]?\s+(?:please\s+)?"
     r"(?P<neg>don't\s+|do not\s+|never\s+)?(?:always\s+)?(?P<x>.+)"),
    ("en.pref.always", POS, r"^(?:please\s+)?(?:always|consistently)\s+(?P<x>.+)"),
    ("en.pref.never", NEG, r"^(?:please\s+)?(?:never|don't ever|do not ever)\s+(?P<x>.+)"),
    ("en.pref.i_always", POS, r"\bi\s+always\s+(?:use|want|write|prefer)\s+(?P<x>.+)"),
    # "Please keep your answers short": how the agent's output should be.
    ("en.pref.keep", {**POS, "check": "facet"},
     r"^(?:please\s+)?keep\s+(?:your|the|all)\s+(?P<x>(?:answers?|replies|responses?|messages?|summaries|"
     r"explanations?|comments?|commit messages?|code)\b.+)"),
    ("en.pref.i_use", {**POS, "check": "facet"},
     r"\bi\s+(?:mostly\s+|usually\s+|mainly\s+|only\s+|now\s+)?use\s+(?P<x>.+)"),
)

PROFILE: tuple[Row, ...] = (
    ("en.profile.name", {"attribute": "name"}, rf"\bmy name is\s+{_EN_VALUE}"),
    ("en.profile.call_me", {"attribute": "name"},
     r"\b(?:call me|i go by)\s+(?P<x>[^,.;!?\s]+(?:\s+[A-Z][^,.;!?\s]*)?)"),
    ("en.profile.occupation", {"attribute": "occupation"},
     rf"\bi(?:'m| am)\s+(?:a|an)\s+(?P<x>(?:[\w+#-]+\s+){{0,3}}(?:{OCCUPATIONS_EN}))\b"),
    ("en.profile.work_as", {"attribute": "occupation"}, rf"\bi work as\s+(?:a|an)\s+{_EN_VALUE}"),
    ("en.profile.employer", {"attribute": "employer"}, rf"\bi work (?:at|for)\s+{_EN_VALUE}"),
    ("en.profile.location", {"attribute": "location"},
     rf"\bi(?:'m| am)?\s*(?:live|living|based|located)\s+in\s+{_EN_VALUE}"),
    ("en.profile.from", {"attribute": "hometown"}, rf"\bi(?:'m| am)\s+(?:originally\s+)?from\s+{_EN_VALUE}"),
    # "I moved to Toronto", "… from Lisbon but moved to Toronto last year" (the subject said before).
    ("en.profile.moved", {"attribute": "location", "check": "en_me"},
     rf"\b(?:i|i've|i have|but|and|then)\s+(?:just\s+|recently\s+|since\s+)?(?:moved|relocated)\s+to\s+{_EN_VALUE}"),
    ("en.profile.timezone", {"attribute": "timezone"}, r"\bmy\s+(?:time\s?zone|tz)\s+is\s+(?P<x>[^,;!?\s]+)"),
    ("en.profile.agent_name", {"attribute": "name", "subject": "agent"}, rf"\byour name is\s+{_EN_VALUE}"),
)

TASK: tuple[Row, ...] = (
    ("en.task.checkbox", {}, r"^\s*[-*]\s*\[\s\]\s*(?P<x>.+)"),
    ("en.task.todo", {}, r"^\s*(?:todo|to-do|to do|action item|task)\s*[:：-]\s*(?P<x>.+)"),
    ("en.task.todo", {}, r"^\s*todo\s+(?P<x>.+)"),
    ("en.task.need", {},
     r"\b(?:we|i|you)\s+(?:still\s+|also\s+|really\s+)?(?:need|have|ought)\s+to\s+(?P<x>.+)"),
    ("en.task.dont_forget", {}, r"\b(?:don't|do not)\s+forget\s+to\s+(?P<x>.+)"),
    ("en.task.will", {}, r"\b(?:i|we)(?:'ll| will)\s+(?P<x>.+)"),
    # Someone else's commitment: "Alice will look into …", "she'll have a draft by Friday".
    ("en.task.they_will", {},
     rf"(?:^|\b)(?:he|she|they|(?-i:[A-Z][a-z]+)(?:\s+(?-i:[A-Z][a-z]+))?|[{HAN_CLASS}]{{2,3}})"
     r"(?:\s+from\s+the\s+[\w -]{2,30}?)?"
     r"(?:'ll|\s+will)\s+(?P<x>.+)"),
    ("en.task.remind", {}, r"\bremind\s+me\s+to\s+(?P<x>.+)"),
    # A request to the agent: "please write the docs for …".
    ("en.task.please", {"roles": "user"}, rf"^(?:please|pls)\s+(?P<x>(?:{_TASK_VERBS_EN})\b.+)"),
    ("en.task.lets", {}, rf"\blet's\s+(?P<x>(?:{_TASK_VERBS_EN})\b.+)"),
)

RETRACTION: tuple[Row, ...] = (
    ("en.retract.wrong", STRONG,
     r"^(?:no|nope|wrong)\b[,.!]*\s*(?:that's|that is|it's|it is|you're|you are)\s+"
     r"(?:wrong|not right|incorrect|not correct|not true|a mistake)\b[,.;:!—-]*\s*(?P<x>.*)$"),
    ("en.retract.thats_wrong", STRONG,
     r"^(?:that's|that is|this is)\s+(?:wrong|not right|incorrect|not true)\b[,.;:!—-]*\s*(?P<x>.*)$"),
    ("en.retract.correction", STRONG, r"^correction\s*[:：,—-]\s*(?P<x>.+)$"),
    ("en.retract.meant", STRONG, r"^(?:sorry[,]?\s*|oops[,]?\s*)?i\s+meant\s+(?P<x>.+)$"),
    ("en.retract.scratch", STRONG,
     r"^(?:scratch that|i was wrong|my mistake|my bad)\b[,.;:!—-]*\s*(?P<x>.*)$"),
    ("en.retract.no", WEAK, r"^(?:no|nope)\b[,.!—-]+\s*(?P<x>.+)$"),
    ("en.retract.actually", WEAK, r"^actually\b[,]?\s*(?P<x>.+)$"),
)

CORRECTION: tuple[Row, ...] = (
    ("en.correction.use", USE, r"^(?P<x>(?:to\s+)?(?:use|using|go with|going with)\s+.+)$"),
)
# fmt: on
