"""The scale bench's cast and phrasebook: projects, people, tools, templates' words, in English and Chinese."""

from __future__ import annotations

PROJECTS_EN = (
    "Atlas", "Billing", "Falcon", "Helios", "Orion", "Payments", "Nebula", "Quartz", "Zephyr", "Lumen",
    "Apollo", "Cobalt", "Ember", "Granite", "Harbor", "Juniper",
)  # fmt: skip
PROJECTS_ZH = ("支付系统", "搜索平台", "数据中台", "风控引擎", "会员中心", "推荐系统", "客服机器人", "物流调度")
# The measured commit_turn calls talk about projects of their own, so the real pipeline and the bulk
# loader never write the same keys (the loader keeps each key's version chain itself).
LIVE_PROJECTS_EN = ("Kestrel", "Lynx", "Mercury", "Nimbus", "Onyx", "Pulsar")
LIVE_PROJECTS_ZH = ("智能客服", "结算中心", "监控平台")
COMPONENTS_EN = (
    "API gateway", "login page", "vector index", "cache layer", "CI pipeline", "billing export",
    "onboarding flow", "rate limiter", "search ranking", "audit log", "admin dashboard", "mobile app",
    "webhook retries", "schema migration", "nightly report", "alerting rules", "feature flags",
    "session store", "image upload", "PDF parser",
)  # fmt: skip
COMPONENTS_ZH = (
    "登录页面", "缓存层", "向量索引", "接口网关", "报表导出",
    "权限系统", "消息队列", "日志采集", "数据同步", "支付回调",
)  # fmt: skip
TOOLS = (
    "Neo4j", "PostgreSQL", "Redis", "Kafka", "Docker", "Kubernetes", "React", "FastAPI", "Grafana",
    "Terraform", "Elasticsearch", "ClickHouse", "RabbitMQ", "Nginx", "Sentry", "Airflow",
)  # fmt: skip
PEOPLE_EN = (
    "Alice Chen", "Bob Martin", "Diego Alvarez", "Emma Schmidt", "Farah Khan", "George Okafor",
    "Hana Suzuki", "Ivan Petrov", "Julia Rossi", "Kofi Mensah", "Lena Novak", "Marco Silva",
)  # fmt: skip
PEOPLE_ZH = ("王伟", "李娜", "张敏", "刘洋", "陈静", "杨帆", "赵磊", "黄丽")
ACTIONS_EN = ("fix", "refactor", "review", "document", "benchmark", "migrate", "deploy", "test", "profile", "rewrite")
ACTIONS_ZH = ("修复", "重构", "评审", "编写文档", "压测", "迁移", "部署", "测试", "优化", "监控")
REASONS_EN = (
    "it is faster", "the team knows it", "it has better docs", "it is cheaper to run", "it scales out",
    "it supports transactions", "the old one kept timing out", "it is already in production",
)  # fmt: skip
REASONS_ZH = ("性能更好", "团队更熟悉", "运维成本更低", "文档更完善", "已经在生产环境使用", "支持事务")
PREFERENCES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("coding", "indentation", ("tabs", "4 spaces", "2 spaces")),
    ("writing", "language", ("English", "中文")),
    ("writing", "tone", ("concise answers", "detailed explanations")),
    ("tools", "editor", ("VS Code", "Neovim", "PyCharm")),
    ("coding", "test framework", ("pytest", "unittest")),
    ("ui", "theme", ("dark mode", "light mode")),
    ("tools", "database client", ("DBeaver", "psql")),
    ("other", "meeting time", ("mornings", "afternoons")),
)
# What a user says to add a task (str.format slots: action, component, title, project, tool, month).
TASK_NEW_ZH = (
    "待办：{action}{project}的{component}。",
    "明天之前要{action}{component}，{project}那边在等。",
    "记一下，{title}，用 {tool}。",
)
TASK_NEW_EN = (
    "TODO: {title} for {project}.",
    "Can you remind me to {title} in {project} by {month}?",
    "I need to {title} before the {project} release, probably with {tool}.",
)
EVENT_KINDS_EN = ("meeting", "release", "incident", "demo")
EVENT_KINDS_ZH = {"meeting": "会议", "release": "发布", "incident": "故障", "demo": "演示"}
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October")
CHIT_CHAT = (
    "Thanks!", "haha ok", "Good morning!", "Great, thank you.", "Sounds good.", "好的，谢谢", "收到", "辛苦了",
    "Cool 👍", "明白了", "Perfect, thanks a lot!", "哈哈好的",
)  # fmt: skip
ACKS = (
    "Got it.", "Noted.", "Sure, I'll keep that in mind.", "Done.", "好的，记下了。", "收到，已更新。",
    "Understood.", "I've updated the task list.", "Okay!", "没问题。",
)  # fmt: skip
QUESTIONS_EN = (
    "What did we decide for the {component} in {project}?",
    "Which tool did we pick for the {component}?",
    "What are the open tasks for {project}?",
    "What is {person} working on?",
    "What happened in the last {project} meeting?",
    "Is the {component} migration done?",
    "What does the user prefer for {pref}?",
    "Why did we choose {tool}?",
    "Show me everything about {tool} in {project}.",
    "What is blocking the {component}?",
)
QUESTIONS_ZH = (
    "{project_zh}的{component_zh}最后决定用什么？",
    "{project_zh}还有哪些待办？",
    "{person_zh}最近在做什么？",
    "上次{project_zh}的会议讨论了什么？",
    "为什么选择{tool}？",
    "{component_zh}的迁移完成了吗？",
)
QUESTIONS_MIXED = ("{project} 的 {component} 用 {tool} 了吗？", "最近 {project} 有什么 decision？")

# The long tail of specific names (synth.SpecificNames): each kind's names are a function of a rank, so any
# rank up to SPECIFIC_RANKS has one name of its own (distinct canonical forms).
TICKET_PREFIXES = ("PAY", "OPS", "WEB", "API", "DATA", "SEC", "MOB", "INF")
FIRST_NAMES = (
    "Aaron", "Adele", "Amir", "Anja", "Ben", "Bianca", "Carlos", "Chloe", "Dana", "Dev", "Elena", "Eli",
    "Fatima", "Felix", "Grace", "Gus", "Hector", "Ines", "Isaac", "Jade", "Jonas", "Kai", "Kira", "Liam",
    "Lucia", "Maya", "Milo", "Nadia", "Nils", "Olga", "Omar", "Priya", "Quinn", "Rafael", "Rosa", "Sami",
    "Sofia", "Tariq", "Tess", "Umar", "Vera", "Victor", "Wen", "Xavier", "Yara", "Yusuf", "Zoe", "Zane",
    "Leah", "Arjun",
)  # fmt: skip
LAST_NAMES = (
    "Abbott", "Bauer", "Castro", "Dubois", "Eriksen", "Fischer", "Garcia", "Horvat", "Ibrahim", "Jensen",
    "Kowalski", "Lindqvist", "Moreau", "Nakamura", "Oliveira", "Park", "Quist", "Rahman", "Santos", "Tanaka",
    "Ueda", "Varga", "Weber", "Xu", "Yilmaz", "Zielinski", "Almeida", "Brandt", "Costa", "Dahl", "Ekström",
    "Ferreira", "Gupta", "Haddad", "Iversen", "Jovanovic", "Kaur", "Larsen", "Mendes", "Novak", "Ortiz",
    "Petrova", "Reyes", "Sato", "Torres", "Ulrich", "Vogel", "Wagner", "Young", "Zhou",
)  # fmt: skip
SURNAMES_ZH = "王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕苏卢蒋蔡贾丁魏薛叶阎"
GIVEN_ZH = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍鹏辉玲建国志红晶琳斌波宁欣悦"
CUSTOMER_HEADS = (
    "Acme", "Apex", "Blue", "Bright", "Cedar", "Coastal", "Delta", "Eagle", "Evergreen", "First", "Golden",
    "Granite", "Harbor", "Horizon", "Iron", "Keystone", "Lakeside", "Liberty", "Maple", "Meridian", "Metro",
    "Northwind", "Oak", "Pacific", "Pinnacle", "Prairie", "Red", "Ridge", "River", "Silver", "Summit",
    "Sun", "Titan", "Union", "Valley", "Vertex", "West", "Willow", "Zenith", "Crescent",
)  # fmt: skip
CUSTOMER_CORES = (
    "Freight", "Health", "Foods", "Energy", "Media", "Retail", "Capital", "Motors", "Pharma", "Telecom",
    "Textiles", "Logistics", "Insurance", "Dental", "Airlines", "Hotels", "Software", "Robotics", "Farms",
    "Steel", "Water", "Solar", "Bikes", "Books", "Coffee", "Fitness", "Games", "Glass", "Homes", "Labs",
    "Marine", "Mining", "Optics", "Paper", "Print", "Rail", "Shoes", "Sports", "Tools", "Travel",
)  # fmt: skip
CUSTOMER_TAILS = (
    "Inc", "Ltd", "GmbH", "Group", "Co", "Partners", "Holdings", "Systems", "Works", "Trading", "AG",
    "Industries", "International", "Services", "Solutions", "Brothers", "Collective", "Network", "Alliance",
    "Corp", "SA", "BV", "Pty", "LLC", "PLC", "KK", "Oy", "AB", "AS", "SpA", "Ventures", "Studio",
)  # fmt: skip
CITIES_ZH = ("北京", "上海", "深圳", "杭州", "成都", "武汉", "南京", "西安", "苏州", "广州", "天津", "重庆")
CUSTOMERS_ZH_HEADS = (
    "华泰",
    "恒通",
    "宏达",
    "鑫源",
    "金盛",
    "博远",
    "天成",
    "瑞丰",
    "永安",
    "嘉禾",
    "新元",
    "中兴",
    "东方",
    "海川",
)
CUSTOMERS_ZH_TAILS = ("物流", "科技", "医药", "食品", "电子", "能源", "传媒", "地产", "汽车", "零售")
CODE_MODULES = (
    "billing", "auth", "search", "ingest", "payments", "notify", "reports", "admin", "gateway", "storage",
    "sync", "export", "mobile", "webhooks", "scheduler", "metrics", "profile", "orders", "catalog", "audit",
)  # fmt: skip
CODE_STEMS = (
    "handler", "client", "models", "views", "service", "worker", "utils", "config", "routes", "schema",
    "tasks", "cache", "retry", "parser", "export", "queue", "limits", "session", "tokens", "store",
    "mapper", "filters", "checks", "jobs", "events",
)  # fmt: skip
SPECIFIC_LINES_EN = {
    "ticket": ("Tracked in {name}.", "Related ticket: {name}.", "See {name} for the history."),
    "incident": ("Same root cause as {name}.", "This came up in {name}.", "Linked to {name}."),
    "file": ("The change is in {name}.", "See {name} for the details.", "It touches {name}."),
    "person": ("cc {name}.", "{name} asked about this.", "Loop in {name} on this."),
    "customer": ("This is for {name}.", "{name} reported it.", "The customer is {name}."),
}
SPECIFIC_LINES_ZH = {
    "ticket": ("相关工单：{name}。", "见{name}。"),
    "incident": ("和{name}是同一个原因。", "关联故障：{name}。"),
    "file": ("改动在 {name} 里。", "细节见 {name}。"),
    "person": ("抄送{name}。", "{name}问过这个。"),
    "customer": ("客户是{name}。", "{name}那边反馈的。"),
}
QUESTIONS_SPECIFIC_EN = ("What do we know about {name}?", "Anything new on {name}?", "What happened with {name}?")
QUESTIONS_SPECIFIC_ZH = ("{name}现在什么情况？", "关于{name}我们知道什么？")
