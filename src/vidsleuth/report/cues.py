"""The words by which a sentence takes a stance on a value, for ``relate``: comparison, revision,
disparagement and dispute cues, reasons, pointers and applications, the marks of a value that is
not the source's own (a former, reported, ceiling or difference figure), steps and own cases.
English cues are regular expressions on the ``values.normalise`` text; Chinese cues beside them."""

from __future__ import annotations

import re

from ..values import normalise

COMPARE = re.compile(r"\b(compared (?:with|to)|by comparison|whereas|versus|vs\.?|unlike|in contrast|than|differs? from|different from)\b"
                      r"|相比|相较|不同于|(?<![从因进然])而(?![且已])(?=\S)"  # 从而/因而: a consequence, not a contrast
                      r"|(?<![对无])比(?![例较率赛重])[^，。；,;]{1,12}?(?:更|还|要|低|高|多|少|大|小|快|慢|贵|便宜|长|短|强|弱)", re.I)  # 比…更
# a page's title that sets things side by side: "A vs B", "Squeeze filters compared", "A or B: which…",
# "What's the difference", "储水式与即热式热水器对比", "韩式泡菜和四川泡菜有什么不同"
COMPARISON_TITLE = re.compile(r"\b(?:vs\.?|versus|compared|comparisons?|comparing|head[- ]to[- ]head|differences? between|"
                               r"what'?s the difference|which is better|which (?:one )?should you)\b|^[^:?\d]{1,40}\bor\b[^:?\d]{1,40}\?|对比|比较|区别|差别|差异|有什么不同|有何不同|哪个好", re.I)
REVISION = re.compile(
    r"\b(now (?:recommend|advise|suggest|specif|call|require|say|list|set|use|state|rate|quote|give|put|defin|consider|class|"
    r"describ|teach|taught)\w*|revised|revision|updated?|"
    r"supersed\w*|replaced by|no longer|new (?:guidance|guideline|standard|recommendation|specification|rule|limit|"
    r"edition|version|figure)s?|as of (?:20\d\d|january|february|march|april|may|june|july|august|september|october|"
    r"november|december)|(?:will|would|is set to|are set to) (?:increase|decrease|rise|fall|drop|change|go up|go down|"
    r"be raised|be lowered|become)|(?:increased|decreased|raised|lowered|changed|reduced) (?:it )?(?:to|from)|"
    r"starting (?:in|from) 20\d\d|from 20\d\d on|effective (?:from|as of)|current (?:guidance|recommendation|edition|"
    r"standard|guideline)s?|latest (?:guidance|edition|version|recommendation|guideline)s?|"
    r"now (?:pays|costs|charges|offers|gives|stands at)|(?:have|has) (?:lowered|raised|cut|increased|reduced|changed)|"
    r"went (?:up|down) to|(?:is|are) now(?=\s+(?:limited to|capped at|set at|rated at|only|just|down to|up to|\W?\d))|"
    r"(?:has|have) (?:also |now )?changed|"
    r"after (?:a|the) (?:[\w-]+ ){0,3}(?:change|redesign|revision)|current (?:production|model year|batch)|"
    r"(?:earlier|previous|older|old|former|original|past) (?:\w+ )?(?:editions?|versions?|advice|guidance|"
    r"recommendations?|recipe|card|guide|rule|figure|standard)s?|(?:guidance|advice|recommendation) has changed)\b"
    r"|已更新|更新为|更新后|最新|新版|修订|现在建议|现建议|调整为|改为|不再|上调|下调|提高到|降低到|由原来的|原来的(?!\S{0,3}倍)"
    r"|(?:缩短|延长|减少|增加|降低|提高|下降|上升|降|涨|调)(?:为|到|至)|降价|涨价", re.I)
# a value judged wrong ("45 minutes is far too short", "500 miles is fantasy", "两年才换的话太晚了");
# "there is enough water" is no such judgement
REJECT = re.compile(r"\b((?:way |far |much )?too (?!bad\b|and\b|but\b|or\b|so\b|is\b|was\b|are\b)[a-z]+|far too|not enough|"
                     r"(?:isn't|aren't|wasn't|weren't) enough|insufficient|rather than|instead of|no longer|wrong|myths?|"
                     r"mistaken?|outdated|incorrect|obsolete|overkill|excessive|unnecessary|fantasy|unrealistic|overblown|overrated|bogus|debunked|"
                     r"(?:wildly |very |rather |a bit |hugely )?optimistic|nonsense|more than (?:you|anyone) needs?|"
                     # dismissals: "one hour does nothing for a young Barolo", "changing at 3 mm is a tyre-shop sales line"
                     r"(?:does|did|do) nothing|makes? no (?:real )?difference|made no (?:real )?difference|pointless|"
                     r"waste of (?:time|money)|sales (?:line|pitch|talk)|marketing (?:line|talk|hype)|gimmicks?|upsell)\b"
                     r"|不够|太(?:短|长|高|低|晚|早|少|多|久|快|慢|大|小|频繁|勤)|错误|误区|谣言|而不是|过时|不行|根本\S{0,2}[不没]|哪有|哪里有|才怪", re.I)
# what these set aside is the figure after them: "a 48-hour cold ferment instead of the 24 hours" prefers its 48 hours
_SET_ASIDE = re.compile(r"rather than|instead of|而不是", re.I)


def rejects(pattern: re.Pattern, clause: str, at: int) -> bool:
    """Whether ``pattern`` (a judgement or a negation) rejects the value at offset ``at`` of ``clause``: a cue that
    sets aside the figure after it ("instead of", "rather than") does not reject one before it."""
    return any(not (_SET_ASIDE.fullmatch(m.group(0)) and at >= 0 and m.start() > at) for m in pattern.finditer(clause))


# a sentence labelled as a myth states its claim to reject it: "Myth 2: You have to wait 15 minutes", "误区：…"
MYTH_LABEL = re.compile(r"^\s*(?:(?:common|popular|the|a) )?(?:myths?|misconceptions?|misbeliefs?|fallac(?:y|ies)|误区|谣言|误解)"
                        r"(?:\s*(?:#\s*)?\d+)?\s*[:：]", re.I)
# a value stated only to be rejected: judged wrong, or under a negation ("never use 45 minutes", "不要…")
DISPARAGE = re.compile(REJECT.pattern + r"|\b(?:never|don't|do not|avoid|not|won'?t|will not|can'?t|cannot|no need|needn'?t|"
                       r"(?:be )?careful with|beware(?: of)?|(?:be )?wary of|watch out for)\b|不要|避免|不必|没必要", re.I)
DISPUTE = re.compile(r"\b(claim(?:s|ed)?|only (?:gave|got|managed|lasted|reached|measured)|well (?:below|above|short of)|"
                      r"in (?:my|our) (?:test|tests|experience|measurement)|measured|actually|in reality|myth|wrong|"
                      r"not true|exaggerat\w*|overstat\w*)\b|实测|测了|测得|测出|其实|并非|夸大", re.I)
BOUND_WORDS = re.compile(r"\b(?:not|no|never)\s+(?:be\s+|go\s+|get\s+|become\s+|run\s+)?(?:more|less|fewer|[a-z]{2,}er) than\b|"
                         r"\bnot\s+(?:be\s+)?exceed\w*|\bnot below\b|"
                          r"\b(?:do not|don'?t|never|not to)\s+(?:\w+\s+){0,5}?(?:below|above|under|over|beyond|exceed\w*|"
                          r"(?:more|less|fewer|longer|shorter|higher|lower) than)\b|"  # "do not leave it for more than 30 minutes"
                          r"\bnot above\b|\bnot under\b|\bnot over\b|不超过|不少于|不低于|不高于|不多于", re.I)
EXPLAIN = re.compile(r"\b(because|since|so that|which is why|the reason|reasons?|matters?|important|helps?|causes?|"
                      r"prevents?|depends? on|affects?|sets? how|means?|leads? to|results? in|reduces?|raises?|changes? the|determines?|"
                      r"controls?|influences?|key to|so the)\b"
                      r"|(?:that|this)(?:'s| is) why|exists? (?:mainly |only |largely )?to|in order to|serves? to"
                      r"|\b(?:is|are|was|were) why\b"
                      r"|因为|由于|所以|有助于|导致|降低|减少|增加|取决于|原因|为什么|为何|之所以", re.I)
# "That slow growth is why cycling is given at least four weeks", "之所以要静坐五分钟，是因为…"
BECAUSE = re.compile(r"\b(?:because|which is why|(?:that|this)(?:'s| is) why|the reason|(?:is|are|was|were) why)\b"
                     r"|因为|由于|之所以", re.I)
# a reason or mechanism said around a value ("…, which is why a minimum room temperature matters", "…, which is
# what puffs the rim", "这就是泡菜需要先在室温放置一两天的原因")
REASON = re.compile(BECAUSE.pattern + r"|\b(?:which|that|this)(?:'s| is) what\b|这就是|之所以|的原因|原因是", re.I)
# a condition opening a sentence, up to its comma: "Below about 10 °C (50 °F), …", "If your drone weighs less than 250 g, …"
CONDITION = re.compile(r"^\W*(?:if|when|whenever|once|below|above|under|over|beyond)\b[^,;:—]*[,;:—]", re.I)
# what follows it is an instruction, not a consequence: "…, you should wait", "…, do not paint"
INSTRUCTION = re.compile(r"^\W*(?:then\s+)?(?:(?:you|we)\s+(?:should|must|need to|have to|'ll need|will need|ought)|"
                          r"do not|don'?t|never|always|make sure|be sure|please|wait|keep|use|add|set|let|try)\b", re.I)
POINTER = re.compile(r"\b(in another (?:article|post|video|guide)|see (?:also|our|the)|we cover|covered (?:in|elsewhere)|"
                      r"read more|click here|subscribe|in a (?:later|future|separate) (?:article|post|video))\b"
                      r"|详见|参见|另文", re.I)
APPLY = re.compile(r"\b(appl(?:y|ies|ied)|use the same|the same (?:method|technique|approach|setting)|for example|"
                    r"in practice|works? (?:just )?as well|can be used)\b|同样适用|也适用|也可以用于", re.I)

# "… and they have never split": a conjunction opening a new subject starts another clause
# …or a new instruction, negated: "Simmer for 18 minutes and don't lift the lid" (not "and never less")
NEW_SUBJECT = re.compile(r"\s(?:and|but|so)\s+(?=(?:they|it|it's|he|she|we|i|you|that|this|there)\b|"
                         r"(?:don'?t|do not|never)\s+(?!(?:less|more|longer|shorter|lower|higher|go|exceed)\b)[a-z]{3,})", re.I)

# telling the reader not to change a value keeps it ("230 °C is right — don't drop it", "never go lower"):
# a negated change is an endorsement, not a rejection
KEEP = re.compile(r"\b(?:don'?t|do not|never|no need to|there'?s no need to)\s+(?:\w+\s+)?(?:drop|lower|raise|reduce|increase|"
                   r"change|cut|touch|adjust|shorten|lengthen|go (?:any )?(?:lower|higher|longer|shorter))\b(?:\s+(?:it|that|this))?"
                   r"|不要(?:降低|调低|调高|改变|减少|增加)|别(?:降低|调低|调高|改)", re.I)

# a value the source states as the former one ("lowered from 50 mm/s", "up from $23,000",
# "比2016版的6克"), as someone else's ("whoever says 60 g…", "a video said 6000 steps", "看到一个视频说"),
# or a machine's ceiling ("Maximum bed temperature: 110 °C") is not the source's own figure for it
FORMER = re.compile(r"(?:\b(?:lowered|raised|reduced|increased|decreased|changed|cut|down|up|moved|revised|updated|"
                     r"dropped|rose|fell)\s+from(?:\s+(?:the|its|their|our|a|an)(?:\s+[a-z-]+){0,4})?|\b(?:instead of|rather than|in place of|previously|formerly|"
                     r"originally|used to be|replac(?:ing|es|ed)|supersed(?:ing|es))(?:\s+(?:the|its|their|our|an?))?|比\S{0,12}的|由?原来的|原先的?|以前的?"
                     r"|(?:不再是|不再(?:建议|推荐|要求)|而不是|取代|代替)(?:以前|之前|原来|原先|过去)?[^，。；,;\s\d]{0,5}"
                     r"|(?:[$€£¥]\s?\d[\d.,]*|\d[\d.,]*\s?(?:元|eur|usd|gbp))\s*[,·|/]?\s*(?:was|previously|before|rrp))"  # "£12.99 was £14.99"
                     r"\s*(?:每(?:天|日|周|月|年|次|小时))?\s*(?:us\$|[$€£¥])?\s*$", re.I)  # "由原来的每天1000毫克"
# said after the value: "the two-month interval we gave before", "30 seconds, as we used to say"
# "the 20 litre minimum in earlier editions of our guide", "48 hours was our old default"
FORMER_AFTER = re.compile(r"^[^.;:,]{0,25}?\b(?:(?:we|they|i|you|it)\s+(?:\w+\s+)?(?:gave|said|stated|listed|recommended|advised|"
                           r"suggested|quoted|used)\s+(?:\w+\s+)?(?:before|previously|earlier|formerly|in the past|until)|"
                           r"(?:in|of|from)\s+(?:the\s+|our\s+|its\s+|their\s+)?(?:earlier|previous|older|former|original|past|first)"
                           r"\s+(?:\w+\s+)?(?:editions?|versions?|guides?|advice|guidance|recommendations?|manuals?|instructions)|"
                           r"(?:was|were)\s+(?:our|the|its|their|my)\s+(?:old|previous|former|original|earlier|past|usual)\b)", re.I)
# a figure the source attributes to its own earlier edition ("Earlier editions of this handbook gave 40 ppm",
# "Our old recipe card said 30 seconds", "Our previous advice was 60 g")
EARLIER = re.compile(r"\b(?:earlier|previous|older|old|former|original|past)\s+(?:(?:[\w()'-]+\s+){0,5}?(?:said|gave|stated|"
                      r"was|were|listed|recommended|suggested|advised)\s+(?:\w+\s+){0,2}|"
                      # "The previous guidance of 8 m between nodes …", "the old limit of 50 mg"
                      r"(?:guidance|advice|recommendations?|rules?|limits?|figures?|defaults?|standards?|values?|spacing|interval)"
                      r"\s+(?:of|was|were|is)\s+(?:about\s+|around\s+|roughly\s+)?)$", re.I)
# a difference, not a setting: "a degree or two out", "reduce by 5 psi", "add 0.2 bar", "knock a bar off",
# "within 1–2 °C of the tank"
DELTA_BEFORE = re.compile(r"(?:\b(?:by|add(?:ing)?|subtract(?:ing)?|knock(?:ing)?|drop(?:ping)?|plus|minus|another|extra)"
                           # "setting it back 7–10 °F", "turn it down 2 degrees", "lower it 5 °C": a change of a setting
                           r"|\b(?:set|turn|dial|bring|knock)\w*\s+(?:(?:it|them|this|that|the\s+\w+)\s+)?(?:back|down|up)"
                           r"|\b(?:lower|rais|drop|reduc|increas|cut)\w*\s+(?:it|them|this|that)"
                           r"|(?:调高|调低|升高|提高|上调|下调|增加|减少)(?!到|至|为))"  # 每调高1℃ (调高到26℃ is a target)
                           r"(?:\s+(?:about|around|roughly|approximately|nearly|almost|some|up to))?\s*$",
                           re.I)
DELTA_AFTER = re.compile(r"^\s*(?:or \d+(?:\.\d+)?\s+)?(?:out|off|apart|warmer|cooler|hotter|colder|more|less|higher|"
                          r"lower|extra|(?:above|below) (?:(?:the|its|their)\s+)?(?:ambient|room|normal|average|usual|typical|recommended|"
                          r"previous|current|target|set ?point)\b)\b", re.I)  # above a norm, not a place ("above the floor")
CHANGE = re.compile(r"\b(?:by|increase\w*|decrease\w*|add\w*|reduc\w*|chang\w*|rais\w*|lower\w*)\b|增加|减少|提高|降低", re.I)
REPORTED = re.compile(r"(?:\b(?:whoever|anyone who|those who|people who|someone who|some people|some recipes|"
                       r"(?:a |the |this |that |one )?video|some videos|every video|many videos|most videos|a review|the review|"
                       # "Every feeding chart tells you…", "The box says…": a common or printed claim the page reports
                       r"(?:every|most|many|some|the)\s+(?:\w+\s+)?(?:chart|guide|label|box|package|packaging|leaflet|site|website)s?)\s+"
                       r"(?:\w+\s+){0,2}(?:says?|said|saying|claims?|claimed|repeats?|tells? you|recommends?|suggests?)\b|"
                       r"\b(?:from|in)\s+(?:a|the|this|that)\s+(?:\w+\s+)?(?:video|review|clip)\b|\b(?:advertis(?:e|es|ed|ing)|boast(?:s|ed|ing)?|"
                       r"claim(?:s|ed|ing)?|tout(?:s|ed|ing)?)\s+(?:(?:a|an|the|its|their|his|her)\s+)?$|\basked (?:me |us )?about\b|\b(?:saw|watched|seen|copied)\s+(?:a|the|this|that)\s+"
                       r"(?:\w+\s+)?(?:video|clip|post|profile)\b|(?:视频|有人|别人|网上|听说)\S{0,6}说)", re.I)
# a figure the source attributes to a maker's claim: "Claimed range is 40 km", "the 34 minutes claimed",
# "40 km the maker advertises", "官方宣称"
CLAIMED_BEFORE = re.compile(r"\b(?:claimed|advertised|promised|quoted)\s+(?:[a-z-]+\s+){0,2}(?:is|was|of|at|:)?\s*$|"
                             r"(?:宣称|号称|标称|宣传)\S{0,6}$", re.I)
CLAIMED_AFTER = re.compile(r"^\s*(?:[a-z-]+\s+)?(?:claimed|advertised|promised|quoted)\b|"
                            r"^[^.;,]{0,20}\b(?:the\s+)?(?:maker|manufacturer|brand|company|box|spec sheet)\s+"
                            r"(?:claims|quotes|advertises|promises|says)\b", re.I)
# a worked calculation: arithmetic on stated figures ("33.6 × 2 ÷ 12 = 5.6 litres", "divided by", "按每公斤…计算");
# a conversion ("1 bar = 14.5 psi") is none
CALCULATION = re.compile(r"\d\s*[×÷]\s*\d|\b(?:divided by|multiplied by|works out (?:to|at|as))\b"
                          # a product of quantities with their units, then its result: "2.2 kW × (4/60) h ≈ 0.15 kWh"
                          r"|\d\s*[^\W\d_]{1,6}\s*[×÷]\s*\(?\s*\d[^=≈。;]{0,40}[=≈]\s*\d"
                          r"|按.{0,30}?(?:计算|来算|算)|算下来|算出|计算(?:得|出|下来)"
                          # a case worked from a stated rate: "At a spread rate of 250 sq ft per gallon, one coat takes …"
                          r"|^\W*at (?:a|an|the|that|this|your)\s+(?:[\w-]+\s+){0,3}?(?:rate|interval|coverage|pace|speed|dose|"
                          r"dosage|ratio|setting|figure)\s+of\b[^,;.]{1,60},\s*\w", re.I)
CEILING = re.compile(r"\b(?:max(?:imum)?|limit(?:s|ed|ing)?)\b(?!\s+of\b)[^.;:]{0,50}:?\s*(?:up to|at most)?\s*$"
                      r"|\brated\b[^.;:]{0,30}\b(?:up to|at most|max(?:imum)?)\s*$", re.I)  # "rated at 2,200" is a spec
QUESTION = re.compile(r"[?？]\s*$|真的吗|是吗|对吗")
# an instruction: a bare verb opening the sentence, then an object or a place ("Measure from the screen …",
# "Divide the count by …", "Take the group's speed"); not a noun with its verb ("Mites feed on the bees")
IMPERATIVE = re.compile(r"^\W*(?:\d+[.)]\s*)?(?:(?:then|now|first|next|finally|always|just|simply),?\s+)?"
                         r"(?!(?:because|since|when|if|after|before|once|while|although|unless|until|as|so|most|many|some|all|"
                         r"this|that|these|those|it|there|here|the|a|an|our|my|your|their|its|each|every|no|not|what|how|why|"
                         r"which|who|in|on|at|for|with|from|by|of|to|and|or|but|yes|also|only|even|more|less)\b)"
                         r"[a-z]+(?<![^s]s)(?<![^e]ed)(?<!ing)(?:\s+(?:up|out|off|down|in|back|over))?\s+"
                         r"(?:the|a|an|your|it|them|this|that|from|once|with|into|onto|to|on|at|for|each|every|one|all|"
                         r"some|only|when|until)\b", re.I)

FINITE = re.compile(r"\b(?:is|are|was|were)\b", re.I)  # "Salt for the dough is sold …": a noun, then its verb

# a first-person account of the writer's own case ("I descale mine every two months and it's fine",
# "Took my stove up at −8 °C", "Followed a video exactly: 70% hydration"): the writer applies the claim to
# a case of their own (a forum post), unless it is advice ("I recommend"), a measurement against the
# claim ("in my test it only managed …") or a revision
OWN_CASE = re.compile(r"(?-i:\bI\b)(?!'d\b)|\b(?:my|mine|ours)\b"
                       # a household's practice ("We keep ours at 50%", "we do 40 °C", "we keep it at 17"), not a publisher's
                       # advice ("we recommend" is ``ADVICE``) or test ("we measured")
                       r"|\bwe\s+(?:\w+\s+)?(?:keep|run|do|use|set|feed|give|put)\s+(?:ours|it|them|him|her|\d)"
                       # a diary's past tense with its subject left out ("Took my stove up…", "Followed a video…");
                       # not an imperative that ends like one ("Cook the", "Brew the", "Feed the", "Clean the", "Ferment the")
                       r"|^\W*(?-i:[A-Z][a-z]*(?<![eE])ed|Took|Shook|Got|Forgot|Shot|Made|Ran|Began|Kept|Slept|Went|Spent|Sent|"
                       r"Drew|Grew|Threw|Bought|Brought|Thought|Fought|Sought)\s+(?:my|mine|a|an|the|it|our|this|that)\b"
                       r"|我(?!们)", re.I)

ADVICE = re.compile(r"\b(?:i|we)\s+(?:[\w'’]+\s+)?(?:recommend|advise|suggest|say|would|'d|think|believe|find that|prefer|urge)\b"
                     r"|我(?:建议|推荐|觉得|认为)", re.I)

# "before applying stain", "when you apply the sealer": applying a substance is a step, not a rule applied
APPLIED = re.compile(r"^\W*(?:an?\s+)?(?:worked\s+)?example\s*[:：—–-]|\bworked example\b|^\W*举个例子|^\W*例[:：]|"  # "Worked example: a 60-litre tank …"
                     r"\b(?:i|we)\s+(?:\w+\s+)?appl(?:y|ied)\b|\bapplying (?:the same|this|that|these|those|it\b|the (?:rule|method|"
                     r"advice|figure|formula|guideline|recommendation)s?)|\bapplied (?:the|this|that|it)\b"
                      r"|套用|照着.{0,6}(?:做|算)", re.I)

# what someone else said, followed by the writer ("我按视频说的…", "as the video says", "like a video showed"):
# the writer's own practice, not a figure reported to be judged
FOLLOWED = re.compile(r"(?:按|照|按照|依照|跟着|照着|根据)\s*$|\b(?:as|like|just as|exactly as)\s+$", re.I)

# "从199元上调到219元": the value after 从 is the one a change left behind
ZH_FROM_TO = re.compile(r"\s*(?:上调|下调|调整|调|涨|降|提高|降低|增加|减少|延长|缩短|改|变)\S{0,2}?(?:到|至|为|成)")

# the period of a repeated action: "every 2–3 months", "每12个月"
EVERY = re.compile(r"(?:\bevery(?:\s+other)?|\bonce every|\beach|每隔?)\s*$", re.I)

# the value a sentence names as the present one among others of its kind ("launch $499 · now $449",
# "currently £12.99", "目前…已降至329元"): the others are what it was
CURRENT = re.compile(r"(?:\b(?:now|currently|today|at present)(?:\s+(?:at|just|only|costs?|sells? for|priced at|down to|up to|"
                     r"is|are|listed at|stands at))?|(?:现价|现为|目前价?|现在|如今|已?(?:降|涨|调|跌)(?:至|到|为)|调整为|改为|更新为))"
                     r"\s*(?:us\$|[$€£¥])?\s*$", re.I)
# the source's own earlier content, told in the past ("For years this page suggested 60 g", "Earlier versions of this
# page explained how to keep it for up to 24 hours", "我们以前建议…"): the figure it no longer gives
SELF_PAST = re.compile(r"(?:\b(?:this|our)\s+(?:page|guide|article|post|site|faq|manual|handbook|label|recipe|chart|"
                       r"leaflet|book|advice|guidance|instructions)|\b(?:earlier|previous|older|former)\s+(?:versions?|editions?)"
                       r"\s+of\s+(?:this|our|the)\s+\w+)\s+(?:\w+\s+)?(?:said|suggested|recommended|advised|gave|stated|listed|"
                       r"explained|told|showed|called for|used to \w+)\b(?:[^.;:!?]|(?<=\d)\.(?=\d)){0,80}$"
                       # an earlier numbered edition told in the past ("Revision 3 gave a recoat time of 4 hours")
                       r"|\b(?:revision|rev\.|edition|version|issue)\s+\d+\s+(?:said|suggested|recommended|advised|gave|stated|"
                       r"listed|specified|called for)\b(?:[^.;:!?]|(?<=\d)\.(?=\d)){0,80}$"
                       # an old rule or figure told in the past ("The old rule of thumb said a chain lasts about 3,000 km")
                       r"|\b(?:the|an?|our)\s+(?:old|older|former|previous|earlier|original)\s+(?:[\w-]+\s+){0,3}?(?:said|suggested|"
                       r"recommended|advised|gave|stated|listed|called for)\b(?:[^.;:!?]|(?<=\d)\.(?=\d)){0,80}$", re.I)
# advice told in the past tense before its figure: "We previously suggested 2½ hours", "we used to recommend 60 g",
# "For years our service counter told customers to switch once it got below 40 °F",
# "我们以前建议盐水浓度5%": the figure the source has since changed
PAST_ADVICE = re.compile(r"(?:\b(?:previously|formerly|originally|once|earlier|until recently)\s+(?:[\w']+\s+){0,4}?(?:suggested|recommended|quoted|"
                         r"said|advised|gave|stated|listed|called for|told|prescribed|specified|repeated|published|printed)"
                         # "In earlier editions of this programme we prescribed 100 swings"
                         r"|\b(?:in|for)\s+(?:the\s+)?(?:earlier|previous|older|former|past|first)\s+(?:editions?|versions?)"
                         r"(?:\s+of\s+(?:this|our|the)\s+\w+)?,?\s+(?:we|they|it|i)\s+(?:\w+\s+)?(?:suggested|recommended|said|"
                         r"advised|gave|stated|listed|called for|told|prescribed|specified)|\bused to (?:recommend|suggest|say|advise|call for|tell|give|list)"
                         # "When we published our first guide in 2019 we suggested 80 psi", "In 2019 we recommended …"
                         r"|\bwhen (?:we|they|it) (?:first )?(?:published|wrote|released|launched)\b[^.;:!?]{0,60}?\b(?:suggested|"
                         r"recommended|said|advised|gave|listed)|\bin (?:19|20)\d\d,?\s+(?:we|they)\s+(?:\w+\s+)?(?:suggested|recommended|"
                         r"said|advised|gave|listed)"
                         r"|\bfor (?:many |several )?(?:years|decades|a long time)\b[^.;:!?]{0,40}?\b(?:suggested|recommended|"
                         r"said|advised|stated|told|taught)"
                         # a figure of the past, told as such: "Ten years ago a 23 mm tyre was standard"
                         r"|\b(?:\w+|\d+) (?:years?|decades?) ago|\ba decade ago|\bback in (?:the )?(?:19|20)\d\ds?)"
                         r"\b(?:[^.;:!?]|(?<=\d)\.(?=\d)){0,120}$"  # the rest of its sentence
                         r"|(?:以前|之前|此前|过去|原来|原先|曾经?)(?:我们|我|他们|大家|官方|本站|本文)?(?:都|一直)?(?:建议|推荐|说|写的?|给出|要求)"
                         r"[^，。；,;！？]{0,12}$", re.I)
# a parenthesis gives the figures of what it follows; after a former method or edition they are the former ones
# ("the original method (200 °C, 18 min)", "按照原来的方法（200度18分钟）")
FORMER_PAREN = re.compile(r"(?:\b(?:the|our|its|their|my)\s+(?:old|original|previous|former|earlier|usual)\s+(?:[\w-]+\s+){0,3}?"
                          r"|(?:原来|原先|以前|之前|此前|旧)的?[^\W\d]{0,6})[(（][^)）]{0,30}$", re.I)


# a page's title that says it explains ("Why pH matters more than you think", "The science of rest between sets",
# "The elbow angle explained", "为什么绿茶不能用沸水冲泡？"): what it says for the video's figure is the reason for it
EXPLANATION_TITLE = re.compile(r"^\W*why\b(?!\s+(?:i|we|i'?ve|we'?ve)\b)|\bwhy (?:you|your|it|the|a|an|do|does|is|are|should|most)\b|"
                               r"\bthe (?:science|chemistry|physics|biology|maths?|reasons?) (?:of|behind|for)\b|"
                               r"为什么|为何|的原因|的原理|的道理", re.I)


def explanation_page(title: str) -> bool:
    """Whether a page's title says it explains why ("Why …", "The science of …"). "… explained" is not enough: "Cold
    cranking amps explained" defines a term and gives its figures, which support or dispute the video's."""
    return bool(EXPLANATION_TITLE.search(normalise(title or "")))


def comparison_page(title: str) -> bool:
    """Whether a page's title says it compares things ("A vs B", "… compared", "what's the difference")."""
    return bool(COMPARISON_TITLE.search(normalise(title or "")))


def own_case(text: str) -> bool:
    """Whether the sentence tells of the writer's own case, not the advice of a page (see ``OWN_CASE``)."""
    return bool(OWN_CASE.search(text) and not ADVICE.search(text) and not QUESTION.search(text)
                and not DISPUTE.search(text) and not REVISION.search(text))


# a figure used as the name of a piece of advice ("The 20% rule is overblown", "the 16 kg advice", "every "80% limit"
# toggle"): the sentence speaks about the advice, and takes a stance only where it says one
NAMED_FIGURE = re.compile(r"^[\"'”’]?\s*-?\s*(rule|advice|guideline|recommendation|figure|number|limit|myth|claim|target|"
                          r"mark|threshold|cap|setting|toggle)s?\b", re.I)
# ...and endorses it where it says so ("the 20% rule works", "the 80% limit is sound advice")
ENDORSED = re.compile(r"\b(?:works?|worked|holds?|held up|is (?:right|correct|sound|fine|good|spot on|sensible|accurate)|"
                      r"makes sense|good advice|sound advice|still (?:stands|applies|valid))\b", re.I)


def compares(text: str) -> bool:
    """A comparison cue, not a bound ("no more than", "longer than six months", "less than 250 g")."""
    # "than 75 °F", "than a week": a bound's figure; "quicker than an unseeded cycle" compares two things
    # "no need to wait longer than that": a bound on the sentence's own figure, not another thing beside it
    text = re.sub(r"\b(?:[a-z]+er|more|less) than (?:that|this|it)\b", " ", text, flags=re.I)
    text = re.sub(r"\b(?:more|less|fewer|no|not|rather) than\b|\b[a-z]+er than(?=\s+(?:about |around |roughly )?(?:\d+|one|two|"
                  r"three|four|five|six|seven|eight|nine|ten|twelve|half|an? (?:few|couple|week|day|hour|minute|month|year|"
                  r"second|quarter|half|dozen|night|season|inch|foot|mile|degree))\b)", " ", text, flags=re.I)
    return bool(COMPARE.search(text))


def is_step(norm: str) -> bool:
    """Whether a (normalised) sentence is a step of a procedure: a bare verb opening it, and no
    finite verb in its first clause ("Look up the time for your jar size", not "Salt … is sold")."""
    return bool(IMPERATIVE.match(norm)) and not FINITE.search(re.split(r"[,;:]", norm)[0])


# an anchor that tells to wait ("Wait a full 24 hours before you plane", "keep off the lawn for two days")
WAIT = re.compile(r"\b(?:wait|let (?:it|them|the \w+) (?:\w+ )?(?:sit|rest|cure|dry|set|stand)|keep off|stay off|hold off|"
                  r"before (?:you )?\w+)\b", re.I)
_PROHIBITION = r"\b(?:do not|don't|never|not|avoid)\b"
# a prohibition that lasts a time: "do not stress the joint or machine the assembly for 24 hours"
_LASTS = re.compile(_PROHIBITION + r"[^.;]{0,80}?\b(?:for|until|within|during)\s+"
                    r"(?:at least\s+|the (?:first|next)\s+|another\s+|a full\s+|a further\s+)?$", re.I)
# ...or until when: "Do not transplant until the soil at 10 cm depth has reached 16 °C"
_UNTIL = re.compile(_PROHIBITION + r"[^.;]{0,60}?\buntil\b[^.;]{0,60}?\b(?:reach(?:es|ed)?|is|are|has|have|hits?|"
                    r"gets? to|climbs? to|warms? to|cools? to|drops? to|falls? to|stays? (?:above|below))\s+"
                    r"(?:at least\s+|about\s+|around\s+|roughly\s+)?$", re.I)


def prohibition_lasts(text: str, start: int, time: bool = True) -> bool:
    """Whether the value at ``start`` is how long or until when a prohibition lasts ("do not machine it for 24 hours",
    "do not transplant until the soil has reached 16 °C"): for an anchor that tells to wait, the source's own
    figure for the wait, not one it rejects. ``time``: the value is a time, which "for 24 hours" may state."""
    before = text[max(0, start - 140):start]
    return bool(time and _LASTS.search(before[-100:]) or _UNTIL.search(before))


# a clause that judges the one before it by a demonstrative ("…: that is overkill", "…, which is far too long")
_BACK = re.compile(r"[,;:：]\s*(?:that|this|it|which)(?:'s|\s+(?:is|was|seems|sounds|looks|feels))\b", re.I)


def clause_of(text: str, r) -> str:
    """The clause around one value (commas, semicolons and a conjunction before a new subject bound it)."""
    lo = max(text.rfind(c, 0, r.value.start) for c in ",;:，；：")
    lo = max([lo] + [m.end() - 1 for m in NEW_SUBJECT.finditer(text, 0, r.value.start)])
    his = [i for i in (text.find(c, r.value.end) for c in ",;:，；：") if i >= 0]
    his += [m.start() for m in NEW_SUBJECT.finditer(text, r.value.end)]
    if his and _BACK.match(text, min(his)):  # "Re the video's −18 °C bag: that is overkill": the judgement is of it
        his = [i for i in (text.find(c, min(his) + 1) for c in ",;:，；：") if i >= 0]
    head = MYTH_LABEL.match(text)  # "Myth 2: …" labels every clause after it
    return (head.group(0) + " " if head and lo >= head.end() - 1 else "") + text[lo + 1:min(his) if his else len(text)]


def disparaged(text: str, r, wait: bool = False, negated: bool = False) -> bool:
    """Whether the source states this value only to reject it ("45 minutes is far too short"). A negation in a
    condition is the condition's ("If you won't be able to eat leftovers within four days, freeze them"): there
    only a judgement rejects; a prohibition's time is a wait where the video tells to wait (``prohibition_lasts``)."""
    around = clause_of(text, r)
    if (negated or wait and prohibition_lasts(text, r.value.start, r.value.dimension == "time")) and not REJECT.search(
            around):  # a video that forbids too ("never open the hive below 59 °F"): the same rule, in its form
        return False
    clause = KEEP.sub(" ", BOUND_WORDS.sub(" ", around))
    return rejects(REJECT if re.match(r"\W*(?:if|unless)\b", clause, re.I) else DISPARAGE, clause, clause.find(text[r.value.start:r.value.end]))
