"""Chinese person names: whether a word jieba found can be one (a common surname, two to four characters)."""

from __future__ import annotations

from graphbrain.nlp.chars import is_han

__all__ = ["plausible_zh_person"]

# jieba's dictionary tags some common nouns as person names (索引 "index" is "nr"): a Chinese person name
# it finds counts as one only when it starts with a common surname (the ~200 most frequent, and the
# usual compound ones); otherwise it is a topic. A rare surname loses only the kind, not the entity.
_ZH_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁"
    "任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付傅方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武"
    "戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮"
    "柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古"
    "吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫"
    "寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝"
)
_ZH_COMPOUND_SURNAMES = ("欧阳", "司马", "诸葛", "上官", "东方", "皇甫", "尉迟", "公孙", "慕容", "长孙", "令狐", "夏侯")


def plausible_zh_person(word: str) -> bool:
    if not 2 <= len(word) <= 4 or not all(is_han(c) for c in word):
        return False
    return word[0] in _ZH_SURNAMES or word.startswith(_ZH_COMPOUND_SURNAMES)
