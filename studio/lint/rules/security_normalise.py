"""Text normalisation of the security rules: what obfuscation of a directive is undone.

A poisoned description dodges literal matching by width (``Ｉｇｎｏｒｅ``),
invisible characters (``Ig\u200bnore``), look-alike letters of other scripts
(Cyrillic ``о``), leetspeak (``1gn0re``), letter spacing (``I G N O R E``),
chopped words (``ig-nore al-l``), escaped line breaks, and — in Chinese — by
being written in traditional characters (``忽略之前的規則``). :func:`normalise`
undoes all of these before any phrase or grammar class is matched, so the
phrase lists and the Chinese classes are written once, in simplified Chinese
and plain Latin letters.

Each fold is guarded by a cheap test (ASCII text skips the Unicode folds, an
RE2 DFA pass tells whether any obfuscation can be present), so clean text costs
one or two linear passes.
"""

from __future__ import annotations

import html
import re
import unicodedata

from studio.lint.rules.security_re2 import seen

# Traditional characters folded to simplified ones. Only characters that occur in
# the words the rules read (orders, rules, users, files, keys, sending, tools…)
# and their common neighbours: a full conversion table is not needed to read a
# directive, and one-to-many characters (著, 藉, 瞭, 乾…) are left alone.
_HANT = (
    "從現們這個對說話時間問題與為給讓記錄檔參數讀鑰輸資訊傳發郵後請將務須應當該別絕隱"
    "規則設開統係歷聯絡帳號碼憑證權員審驗檢過濾調選擇優級總遠僅並還內結蓋無視繞關閉執"
    "處顯洩訴瞞裝氣腦機戶電鍵錢轉賬匯報導屬學習實際責換寫於幫態樣點詢顧慮擔認儲備雲網"
    "連線計畫簽擊訪獲歸類項庫據訂單標準確誤錯舊棄廢維護險風鎖啟動構議會體質滿頂條約範"
    "達遞門紀鏈識詞語講談謊稱騙誘聽觀見徑頭麼邊裡裏餘頁帶攜續繼衝專業讚緊嚴謹懲罰禮戲"
    "劇聲產價額費貨幣銀紅綠藍黃車軟夾刪載測試佈獨憂隨鐘歲區縣團隊夥廣營銷購買賣鑑綁驟"
    "輯製蹤監竊盜駭壞惡誌週覽瀏寶閱飛龍師醫藥擁幾萬億盡極強領陸臺灣復麗華韓劃響毀滅彈"
    "殺槍敵軍戰爭爾亞歐東圖書館筆錶鐵鋼礦藝術築環變噹經濟齊補償頻餵餓飯圓園鬆髮鬍塊壓"
    "縮擴廠倉衛隸勢謝謂誰貓聞閃預絲綜緒績縱織繫纜貼賴賺趨跡躍軌輔輕輪辦遲適鄉鄰針鏡長"
    "閒閘陰陳隻雖雙離難雜靈頒頓頸顆願顏颱飄養駐驅鬥魚鳥鹽麥黨齒齡尋釋擬擾攔攝撥撐擋揮"
    "損搖摺撲撫廳廁廚彙徹徵憶懷懶戀揀摯敗敘斷晝暫曆槓樂樹橋歡殘漢潔濃濕燈燒爐牆犧狀獎"
    "獻璽畢異療癒盤睜矯礎禍穩窮竄競簡籃糧糾紡細組終綱緩編緣繪繳罷羅義聖聰肅脈腳膽臉臨"
    "興艱莊葉蔣薦蘇蟲複覺觸討訓託許診註詠評詩詳誇誕誠課論諸謀譜譯豐貝負財貢貧販貴貸貿"
    "賓賞賠賦贈趕較辯農進運違遙遷遺鄭醜採鍋鍾鎮闆陣陽階雞靜順馬驚髒鬧魯鳳龜沒嗎兒襲啞"
    "礙囑嘗"
)
_HANS = (
    "从现们这个对说话时间问题与为给让记录档参数读钥输资讯传发邮后请将务须应当该别绝隐"
    "规则设开统系历联络账号码凭证权员审验检过滤调选择优级总远仅并还内结盖无视绕关闭执"
    "处显泄诉瞒装气脑机户电键钱转账汇报导属学习实际责换写于帮态样点询顾虑担认储备云网"
    "连线计画签击访获归类项库据订单标准确误错旧弃废维护险风锁启动构议会体质满顶条约范"
    "达递门纪链识词语讲谈谎称骗诱听观见径头么边里里余页带携续继冲专业赞紧严谨惩罚礼戏"
    "剧声产价额费货币银红绿蓝黄车软夹删载测试布独忧随钟岁区县团队伙广营销购买卖鉴绑骤"
    "辑制踪监窃盗骇坏恶志周览浏宝阅飞龙师医药拥几万亿尽极强领陆台湾复丽华韩划响毁灭弹"
    "杀枪敌军战争尔亚欧东图书馆笔表铁钢矿艺术筑环变当经济齐补偿频喂饿饭圆园松发胡块压"
    "缩扩厂仓卫隶势谢谓谁猫闻闪预丝综绪绩纵织系缆贴赖赚趋迹跃轨辅轻轮办迟适乡邻针镜长"
    "闲闸阴陈只虽双离难杂灵颁顿颈颗愿颜台飘养驻驱斗鱼鸟盐麦党齿龄寻释拟扰拦摄拨撑挡挥"
    "损摇折扑抚厅厕厨汇彻征忆怀懒恋拣挚败叙断昼暂历杠乐树桥欢残汉洁浓湿灯烧炉墙牺状奖"
    "献玺毕异疗愈盘睁矫础祸稳穷窜竞简篮粮纠纺细组终纲缓编缘绘缴罢罗义圣聪肃脉脚胆脸临"
    "兴艰庄叶蒋荐苏虫复觉触讨训托许诊注咏评诗详夸诞诚课论诸谋谱译丰贝负财贡贫贩贵贷贸"
    "宾赏赔赋赠赶较辩农进运违遥迁遗郑丑采锅钟镇板阵阳阶鸡静顺马惊脏闹鲁凤龟没吗儿袭哑"
    "碍嘱尝"
)
_HANT_TABLE = str.maketrans(_HANT, _HANS)
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#x[0-9a-fA-F]{1,6}|[A-Za-z]{2,8});")
"""An HTML character reference: the model reads ``&#73;gnore`` as "Ignore"."""

# Chinese written one character at a time with separators ("请 忽 略 先 前 的 规 则"):
# four or more single characters, each followed by the same kind of gap. Chinese
# does not put spaces between characters, so the gaps are dropped.
_SPACED_HAN_RUN = "(?:[\u4e00-\u9fff][ \t·._*-]+){3,}[\u4e00-\u9fff]"
_SPACED_HAN = re.compile(_SPACED_HAN_RUN)
_SPACED_HAN_SEEN = seen(_SPACED_HAN_RUN)
_HAN_SPACER = re.compile(r"[ \t·._*-]+")
_TW_WORDS = {
    "呼叫": "调用",
    "传送": "发送",
    "讯息": "消息",
    "帐号": "账号",
    "帐户": "账户",
    "使用者": "用户",
    "档案": "文件",
    "伺服器": "服务器",
    "程式": "程序",
    "网路": "网络",
    "身分证": "身份证",
    "栏位": "字段",
    "欄位": "字段",
}
"""Words of Taiwan usage (after the characters are folded) and their mainland words: a
traditional text says 呼叫 send_message 前 and 使用者的帳號 where the classes read 调用 and
用户的账号."""
_TW_WORD = re.compile("|".join(sorted(_TW_WORDS, key=len, reverse=True)))
_HANT_SEEN = seen(f"[{_HANT}]")
"""The same set on RE2: one pass tells whether a text holds a traditional character."""


# Zero-width and formatting characters, bidirectional controls, invisible fillers,
# Unicode tag characters, interlinear annotation anchors (U+FFF9–FFFB: a renderer
# drops them and the annotated text may be shown or not), the variation selectors of
# the supplement and the format controls of Egyptian hieroglyphs, shorthand and musical
# notation (U+13430…, U+1BCA0…, U+1D173…: they join or shape signs of their own script;
# a tool's text, which holds none of those signs, shows nothing where they stand).
_INVISIBLE_CLASS = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180e\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb"
    "\U000e0000-\U000e007f\U000e0100-\U000e01ef"
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
)
INVISIBLE = re.compile(f"[{_INVISIBLE_CLASS}]")
_INVISIBLE_SEEN = seen(f"[{_INVISIBLE_CLASS}]")
"""The same class on RE2, to tell quickly whether a text holds one."""

# Letters of other scripts that look like Latin ones (Cyrillic, Greek).
_CONFUSABLES = str.maketrans(
    "аеорсухіѕјԁӏАЕОРСХНКМТВІЅЈοαεινκρτΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxisjdlAEOPCXHKMTBISJoaeivkptABEZHIKMNOPTYX",
)
_CONFUSABLE = re.compile("[\u0370-\u03ff\u0400-\u04ff\u0500-\u052f]")
_LEET_TABLE = str.maketrans("013457@$", "oieastas")
_LEET_DIGITS = frozenset("013457@$")
_LEET_WORD = re.compile(
    r"(?<![\w@$])(?=[\w@$]*[A-Za-z])(?=[\w@$]*[0-9@$])[A-Za-z0-9@$]{3,}(?![\w@$])"
)
# Five or more single letters with the same separator between each: "I G N O R E",
# "i.g.n.o.r.e" (a different separator ends the word: "i.g.n.o.r.e p.r.e.v…").
_SPACED = re.compile(
    r"(?<![A-Za-z])[A-Za-z](?P<sep>[ ._*·-])[A-Za-z](?:(?P=sep)[A-Za-z]){3,}(?![A-Za-z])"
)
_SPACER = re.compile(r"[ ._*·-]")
# Three words chopped by hyphens close together ("Ig-nore al-l prev-ious"): a word
# split to dodge matching, not "read-only" or "e-mail" alone.
_CHOP = r"[A-Za-z]{1,5}-[A-Za-z]"
_CHOPPED_RUN = rf"\b{_CHOP}+(?:\W+\w+){{0,2}}?\W+{_CHOP}+(?:\W+\w+){{0,2}}?\W+{_CHOP}"
_CHOPPED = seen(_CHOPPED_RUN)
_INNER_HYPHEN = re.compile(r"(?<=[A-Za-z])-(?=[A-Za-z])")
# Text that may hold either, or an escaped line break: a text without a match is
# returned as it is. (RE2: one DFA pass; a superset of what the folds change.)
_OBFUSCATED = seen(
    r"[A-Za-z][013457@$]|[013457@$][A-Za-z]|\\n"
    r"|\b[A-Za-z][ ._*·-][A-Za-z][ ._*·-][A-Za-z][ ._*·-][A-Za-z]|" + _CHOPPED_RUN
)


def _unleet(match: re.Match[str]) -> str:
    word = match.group()
    if "@" in word and match.string[match.end() : match.end() + 1] in (".", "-"):
        return word  # an e-mail address
    digits = {c for c in word if not c.isalpha()}
    if sum(c.isalpha() for c in word) < 2 and not digits <= _LEET_DIGITS:
        return word
    return word.replace("11", "ll").translate(_LEET_TABLE)


def normalise(value: str) -> str:
    """``value`` as the phrases read it: obfuscation of width, script and spacing undone.

    HTML character references decoded, NFKC (full-width and styled letters to
    plain ones, Kangxi radicals to ideographs), invisible characters
    removed, Cyrillic and Greek look-alikes mapped to Latin, traditional Chinese
    characters mapped to simplified ones, letter-spaced Chinese closed up, leetspeak words
    (``1gn0re``) and letter-spaced words (``I G N O R E``) folded, and escaped
    line breaks (a literal backslash-n) turned into line breaks. Line breaks are
    kept, so the normalised lines of joined texts are the texts normalised.
    """
    if "&" in value and _ENTITY.search(value):
        value = html.unescape(value)  # &lt;IMPORTANT&gt;, &#73;gnore
    if value.isascii():
        if not _OBFUSCATED.in_text(value):
            return value
    else:
        if not unicodedata.is_normalized("NFKC", value):
            value = unicodedata.normalize("NFKC", value)
        if _INVISIBLE_SEEN.in_text(value):
            value = INVISIBLE.sub("", value)
        if _CONFUSABLE.search(value):
            value = value.translate(_CONFUSABLES)
        if _HANT_SEEN.in_text(value):
            value = value.translate(_HANT_TABLE)
            value = _TW_WORD.sub(lambda m: _TW_WORDS[m.group()], value)
        if _SPACED_HAN_SEEN.in_text(value):
            value = _SPACED_HAN.sub(lambda m: _HAN_SPACER.sub("", m.group()), value)
        if not _OBFUSCATED.in_text(value):
            return value
    if "\\n" in value:
        value = value.replace("\\n", "\n")
    if _CHOPPED.in_text(value):
        value = _INNER_HYPHEN.sub("", value)
    value = _LEET_WORD.sub(_unleet, value)
    return _SPACED.sub(lambda m: _SPACER.sub("", m.group()), value)


def strip_invisible(value: str) -> str:
    """``value`` without zero-width, bidirectional-control and tag characters."""
    return INVISIBLE.sub("", value)
