// Labels in Chinese and English. The choice is remembered in localStorage["cardroom:lang"].
// Every element with data-i18n="key" gets its text from here; t(key, params) for the rest.

const STRINGS = {
  en: {
    "app.title": "Card room · Guandan",
    "lang.other": "中文",
    "lobby.heading": "Guandan card room",
    "lobby.name": "Your name",
    "lobby.name.placeholder": "Player",
    "lobby.quick": "Play now against three bots",
    "lobby.quick.note": "One click: a new table, you at seat 1, three heuristic bots.",
    "lobby.create": "Create a table",
    "lobby.table.name": "Table name",
    "lobby.rules": "Rule set",
    "lobby.length": "Match length",
    "lobby.length.full": "Until a team passes A",
    "lobby.length.deals": "{n} deals",
    "lobby.length.one": "1 deal",
    "lobby.seats": "Seats",
    "lobby.seat.human": "Open seat (a person)",
    "lobby.seat.bot": "Bot: {bot}",
    "lobby.clocks": "Clocks (seconds)",
    "lobby.clock.tribute": "Tribute",
    "lobby.clock.return": "Return",
    "lobby.clock.lead": "Lead",
    "lobby.clock.follow": "Follow",
    "lobby.clocks.note": "When a clock runs out, a bot plays for the seat (托管).",
    "lobby.clocks.invalid": "{clock}: enter a whole number of seconds from {min} to {max}.",
    "lobby.clocks.summary": "Clocks {values} s",
    "lobby.create.submit": "Create",
    "lobby.created": "Table created. Share this link:",
    "lobby.copy": "Copy link",
    "lobby.copied": "Copied",
    "lobby.open": "Open the table",
    "lobby.tables": "Open and running tables",
    "lobby.tables.none": "No tables yet. Create one, or play now against bots.",
    "lobby.refresh": "Refresh",
    "lobby.sit": "Sit here",
    "lobby.watch": "Watch",
    "lobby.enter": "Enter",
    "lobby.error": "Something went wrong: {message}",
    "status.waiting": "waiting for players",
    "status.running": "running",
    "status.finished": "finished",
    "seat.open": "open",
    "seat.bot": "bot",
    "seat.label": "Seat {n}",
    "seat.botName": "Bot {n}",
    "bot.heuristic": "heuristic",
    "bot.random": "random",
    "bot.search": "search",
    "team.0": "Team A",
    "team.1": "Team B",
    "team.ours": "us",
    "team.theirs": "them",
    "top.lobby": "Lobby",
    "top.share": "Share link",
    "top.copied": "Link copied",
    "top.replay": "Replay",
    "top.levels": "Levels",
    "top.playing": "Playing {level}",
    "top.deal": "Deal {n}",
    "conn.online": "connected",
    "conn.offline": "reconnecting…",
    "spectator.banner": "You are watching: hands are hidden.",
    "waiting.title": "Waiting for players",
    "waiting.note": "The match begins when every open seat is taken. Share the link or pick a seat.",
    "waiting.sit": "Sit here",
    "waiting.name": "Your name",
    "turn.yours": "Your turn",
    "turn.lead": "Your lead",
    "turn.other": "{name} to act",
    "btn.play": "Play",
    "btn.pass": "Pass",
    "btn.hint": "Hint",
    "btn.clear": "Clear",
    "btn.resume": "Take my seat back",
    "btn.close": "Close",
    "btn.give": "Give this card",
    "btn.return": "Return this card",
    "btn.lobby": "Back to the lobby",
    "auto.banner": "托管: a bot is playing for you (the clock ran out).",
    "auto.badge": "托管",
    "auto.seat": "auto",
    "played.pass": "Pass",
    "badge.report": "{n} left",
    "badge.bot": "bot",
    "badge.offline": "offline",
    "badge.you": "you",
    "reading.title": "These cards can be read several ways. Play them as:",
    "hint.pass": "The bot would pass here.",
    "hint.none": "No hint now.",
    "select.illegal": "Not a legal play",
    "select.none": "Select cards to play",
    "place.0": "1st (上游)",
    "place.1": "2nd",
    "place.2": "3rd",
    "place.3": "4th (下游)",
    "tribute.title": "Tribute",
    "tribute.pay": "Pay tribute to {name}: choose one of your highest cards.",
    "tribute.payAny": "Pay tribute: choose one of your highest cards.",
    "tribute.wait": "Waiting for {name} to pay tribute.",
    "tribute.facedown": "{from} paid a tribute face down {card}",
    "tribute.anti": "{name} declares 抗贡: no tribute",
    "tribute.paid": "{from} paid {card} to {to}",
    "return.title": "Return",
    "return.pay": "Return a card to {name} (10 or lower).",
    "return.payAny": "Return a card (10 or lower).",
    "return.wait": "Waiting for {name} to return a card.",
    "return.paid": "{from} returned {card} to {to}",
    "return.hidden": "{from} returned a card to {to}",
    "deal.title": "Deal {n} is over",
    "deal.places": "Places",
    "deal.rise": "{team} rises {n} level(s)",
    "deal.norise": "No level change",
    "deal.levels": "Levels now: {a} · {b}",
    "deal.next": "The next deal starts shortly…",
    "match.title": "The match is over",
    "match.winner": "{team} wins",
    "match.draw": "A draw",
    "match.score": "Score (28-point table): {a} : {b}",
    "match.levels": "Final levels: {a} · {b}",
    "replay.title": "Replay",
    "replay.deal": "Deal",
    "replay.first": "Start",
    "replay.prev": "Back",
    "replay.next": "Step",
    "replay.last": "End",
    "replay.step": "Step {i} of {n}",
    "replay.none": "No finished deal to replay yet.",
    "replay.loading": "Loading the record…",
    "replay.tribute": "{from} pays {card} to {to}",
    "replay.return": "{from} returns {card} to {to}",
    "replay.play": "{from}: {play}",
    "replay.pass": "{from} passes",
    "replay.start": "The deal as dealt",
    "error.bad_token": "Your seat token was not accepted; you are watching.",
    "error.unknown_table": "There is no such table.",
    "kind.Single": "Single",
    "kind.Pair": "Pair",
    "kind.Trips": "Triple",
    "kind.ThreeWithTwo": "Full house",
    "kind.Straight": "Straight",
    "kind.ThreePair": "Three pairs",
    "kind.TwoTrips": "Plate",
    "kind.Bomb": "Bomb",
    "kind.StraightFlush": "Straight flush",
    "kind.FourKings": "Four jokers",
    "kind.Airplane": "Airplane",
    "kind.ThreeKings": "Three jokers",
    "kind.ChainBomb": "Chain bomb",
    "rank.B": "small joker",
    "rank.R": "big joker",
    "rules.competition": "Competition",
    "rules.classic": "Classic",
    "rules.platform": "Platform",
    "rules.huopin": "Huopin (火拼)",
    "legend.level": "level card",
    "legend.wild": "wild (逢人配)",
  },
  zh: {
    "app.title": "掼蛋牌室",
    "lang.other": "English",
    "lobby.heading": "掼蛋牌室",
    "lobby.name": "你的名字",
    "lobby.name.placeholder": "玩家",
    "lobby.quick": "立即开始（三个机器人）",
    "lobby.quick.note": "一键开桌：你坐 1 号位，另外三家是机器人。",
    "lobby.create": "创建牌桌",
    "lobby.table.name": "桌名",
    "lobby.rules": "规则",
    "lobby.length": "比赛长度",
    "lobby.length.full": "打过 A 为止",
    "lobby.length.deals": "{n} 副牌",
    "lobby.length.one": "1 副牌",
    "lobby.seats": "座位",
    "lobby.seat.human": "空位（等人入座）",
    "lobby.seat.bot": "机器人：{bot}",
    "lobby.clocks": "限时（秒）",
    "lobby.clock.tribute": "进贡",
    "lobby.clock.return": "还贡",
    "lobby.clock.lead": "首出",
    "lobby.clock.follow": "跟牌",
    "lobby.clocks.note": "超时后由机器人托管。",
    "lobby.clocks.invalid": "{clock}限时须为 {min}–{max} 之间的整数秒。",
    "lobby.clocks.summary": "限时 {values} 秒",
    "lobby.create.submit": "创建",
    "lobby.created": "牌桌已创建，分享链接：",
    "lobby.copy": "复制链接",
    "lobby.copied": "已复制",
    "lobby.open": "进入牌桌",
    "lobby.tables": "等待中和进行中的牌桌",
    "lobby.tables.none": "还没有牌桌。创建一桌，或者直接和机器人打。",
    "lobby.refresh": "刷新",
    "lobby.sit": "入座",
    "lobby.watch": "观战",
    "lobby.enter": "进入",
    "lobby.error": "出错了：{message}",
    "status.waiting": "等人入座",
    "status.running": "进行中",
    "status.finished": "已结束",
    "seat.open": "空位",
    "seat.bot": "机器人",
    "seat.label": "{n} 号位",
    "seat.botName": "机器人 {n}",
    "bot.heuristic": "启发式",
    "bot.random": "随机",
    "bot.search": "搜索",
    "team.0": "甲方",
    "team.1": "乙方",
    "team.ours": "我方",
    "team.theirs": "对方",
    "top.lobby": "大厅",
    "top.share": "分享链接",
    "top.copied": "链接已复制",
    "top.replay": "回放",
    "top.levels": "级数",
    "top.playing": "打 {level}",
    "top.deal": "第 {n} 副",
    "conn.online": "已连接",
    "conn.offline": "重新连接中…",
    "spectator.banner": "你在观战，看不到手牌。",
    "waiting.title": "等待玩家",
    "waiting.note": "所有空位坐满后开始。分享链接，或者选一个座位。",
    "waiting.sit": "坐这里",
    "waiting.name": "你的名字",
    "turn.yours": "轮到你出牌",
    "turn.lead": "轮到你先出",
    "turn.other": "等待 {name}",
    "btn.play": "出牌",
    "btn.pass": "不出",
    "btn.hint": "提示",
    "btn.clear": "重选",
    "btn.resume": "取消托管",
    "btn.close": "关闭",
    "btn.give": "进贡这张",
    "btn.return": "还这张",
    "btn.lobby": "回到大厅",
    "auto.banner": "托管中：超时了，机器人在替你出牌。",
    "auto.badge": "托管",
    "auto.seat": "托管",
    "played.pass": "不出",
    "badge.report": "剩 {n} 张",
    "badge.bot": "机器人",
    "badge.offline": "掉线",
    "badge.you": "你",
    "reading.title": "这手牌有几种读法，请选择：",
    "hint.pass": "机器人会选择不出。",
    "hint.none": "现在没有提示。",
    "select.illegal": "不是合法的牌型",
    "select.none": "选牌出牌",
    "place.0": "上游",
    "place.1": "二游",
    "place.2": "三游",
    "place.3": "下游",
    "tribute.title": "进贡",
    "tribute.pay": "向 {name} 进贡：选一张最大的牌。",
    "tribute.payAny": "进贡：选一张最大的牌。",
    "tribute.wait": "等待 {name} 进贡。",
    "tribute.facedown": "{from} 已扣牌进贡 {card}",
    "tribute.anti": "{name} 抗贡：不进贡",
    "tribute.paid": "{from} 向 {to} 进贡 {card}",
    "return.title": "还贡",
    "return.pay": "还给 {name} 一张牌（10 或以下）。",
    "return.payAny": "还一张牌（10 或以下）。",
    "return.wait": "等待 {name} 还贡。",
    "return.paid": "{from} 还给 {to} {card}",
    "return.hidden": "{from} 还给 {to} 一张牌",
    "deal.title": "第 {n} 副牌结束",
    "deal.places": "名次",
    "deal.rise": "{team}升 {n} 级",
    "deal.norise": "级数不变",
    "deal.levels": "现在的级数：{a} · {b}",
    "deal.next": "下一副马上开始…",
    "match.title": "比赛结束",
    "match.winner": "{team}获胜",
    "match.draw": "平局",
    "match.score": "比分（28 分制）：{a} : {b}",
    "match.levels": "最终级数：{a} · {b}",
    "replay.title": "回放",
    "replay.deal": "牌局",
    "replay.first": "开头",
    "replay.prev": "后退",
    "replay.next": "下一步",
    "replay.last": "结尾",
    "replay.step": "第 {i} 步，共 {n} 步",
    "replay.none": "还没有打完的牌局可以回放。",
    "replay.loading": "正在读取记录…",
    "replay.tribute": "{from} 向 {to} 进贡 {card}",
    "replay.return": "{from} 还给 {to} {card}",
    "replay.play": "{from}：{play}",
    "replay.pass": "{from} 不出",
    "replay.start": "发牌时的手牌",
    "error.bad_token": "座位凭证无效，你现在是观战。",
    "error.unknown_table": "没有这张牌桌。",
    "kind.Single": "单张",
    "kind.Pair": "对子",
    "kind.Trips": "三张",
    "kind.ThreeWithTwo": "三带二",
    "kind.Straight": "顺子",
    "kind.ThreePair": "三连对",
    "kind.TwoTrips": "钢板",
    "kind.Bomb": "炸弹",
    "kind.StraightFlush": "同花顺",
    "kind.FourKings": "天王炸",
    "kind.Airplane": "飞机",
    "kind.ThreeKings": "三王炸",
    "kind.ChainBomb": "连环炸",
    "rank.B": "小王",
    "rank.R": "大王",
    "rules.competition": "竞技规则",
    "rules.classic": "传统规则",
    "rules.platform": "平台规则",
    "rules.huopin": "火拼掼蛋",
    "legend.level": "级牌",
    "legend.wild": "逢人配",
  },
};

const KEY = "cardroom:lang";
const listeners = [];

function initialLang() {
  try {
    const saved = localStorage.getItem(KEY);
    if (saved && STRINGS[saved]) return saved;
  } catch (_) {
    // storage may be unavailable (private mode); fall through
  }
  const nav = (navigator.language || "en").toLowerCase();
  return nav.startsWith("zh") ? "zh" : "en";
}

let lang = initialLang();

export function getLang() {
  return lang;
}

export function t(key, params = {}) {
  let text = STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
  for (const [name, value] of Object.entries(params)) {
    text = text.split(`{${name}}`).join(String(value));
  }
  return text;
}

export function has(key) {
  return key in STRINGS[lang] || key in STRINGS.en;
}

/** A bot's name as shown: "heuristic" / "启发式"; unknown bots by their own name. */
export function botLabel(name) {
  return name && has(`bot.${name}`) ? t(`bot.${name}`) : name || "";
}

/** Fill every [data-i18n] (text) and [data-i18n-placeholder] under root. */
export function applyI18n(root = document) {
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(el.dataset.i18n);
  }
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.setAttribute("placeholder", t(el.dataset.i18nPlaceholder));
  }
  for (const el of root.querySelectorAll("[data-i18n-title]")) {
    el.setAttribute("title", t(el.dataset.i18nTitle));
  }
}

export function setLang(next) {
  if (!STRINGS[next]) return;
  lang = next;
  try {
    localStorage.setItem(KEY, next);
  } catch (_) {
    // not remembered, still switched
  }
  applyI18n();
  for (const fn of listeners) fn(lang);
}

export function toggleLang() {
  setLang(lang === "zh" ? "en" : "zh");
}

export function onLangChange(fn) {
  listeners.push(fn);
}

/** Wire a button that switches the language; its label names the other language. */
export function bindLangButton(button) {
  const label = () => {
    button.textContent = t("lang.other");
  };
  label();
  button.addEventListener("click", () => toggleLang());
  onLangChange(label);
}
