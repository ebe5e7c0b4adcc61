// A game's page, live: each move arrives as a server-sent event carrying the whole state of the page
// (web/pages.py game_message); the clocks count down between events. No inline script: CSP allows only this file.
(function () {
  "use strict";
  var root = document.getElementById("live");
  if (!root) return;
  var base = root.dataset.base;
  var version = Number(root.dataset.version);
  var clocks = document.getElementById("clocks");
  var skew = Number(clocks.dataset.now) * 1000 - Date.now();

  function text(tag, value, cls) {
    var el = document.createElement(tag);
    if (cls) el.className = cls;
    el.textContent = value;
    return el;
  }

  function left(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    var d = Math.floor(seconds / 86400), h = Math.floor(seconds % 86400 / 3600);
    var m = Math.floor(seconds % 3600 / 60), s = seconds % 60;
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    var clock = h || d ? two(h) + ":" + two(m) + ":" + two(s) : two(m) + ":" + two(s);
    return d ? d + "d " + clock : clock;
  }

  function tick() {
    var now = (Date.now() + skew) / 1000;
    clocks.querySelectorAll("li[data-deadline]").forEach(function (li) {
      var deadline = Number(li.dataset.deadline);
      if (deadline) li.querySelector(".left").textContent = left(deadline - now);
    });
  }

  function players(list) {
    var ul = document.getElementById("players");
    ul.replaceChildren();
    list.forEach(function (p) {
      var li = document.createElement("li");
      if (p.to_act) li.className = "to-act";
      if (p.place) { li.append(text("span", p.place + ".", "place"), " "); }
      li.append(text("span", p.name, "name"));
      if (p.label) li.append(" ", text("span", p.label, "label"));
      if (p.ai) li.append(" ", text("span", root.dataset.ai || "AI", "tag"));
      if (p.to_act) li.append(" ", text("span", root.dataset.turn || "", "tag turn"));
      ul.append(li);
    });
  }

  function show(state) {
    if (state.version < version) return;
    version = state.version;
    root.dataset.version = version;
    document.getElementById("status").textContent = state.status_text;
    var board = document.getElementById("board");
    if (board && state.board) board.src = base + "/board/" + state.version + ".png";
    if (!board && state.board) { window.location.reload(); return; }
    players(state.players);
    var log = document.getElementById("log");
    log.replaceChildren.apply(log, state.lines.map(function (l) { return text("li", l); }));
    log.scrollTop = log.scrollHeight;
    var none = document.getElementById("no-moves");
    if (none && state.lines.length) none.hidden = true;
    skew = state.now * 1000 - Date.now();
    clocks.replaceChildren.apply(clocks, state.clocks.map(function (c) {
      var li = document.createElement("li");
      if (c.deadline) li.dataset.deadline = c.deadline;
      li.append(text("span", c.text, "text"), " ", text("time", c.left, "left"));
      return li;
    }));
    var result = document.getElementById("result");
    var lines = document.getElementById("result-lines");
    lines.replaceChildren.apply(lines, state.result_lines.map(function (l) { return text("li", l); }));
    result.hidden = !state.result_lines.length;
    document.getElementById("replay-link").hidden = state.status !== "finished";
    if (state.status !== "running" && state.status !== "lobby") {
      document.getElementById("live-note").textContent = "";
      if (source) source.close();
    }
    root.dataset.status = state.status;
    document.dispatchEvent(new CustomEvent("gamehost:update", { detail: state }));
  }

  var turn = document.querySelector(".players .tag.turn");
  if (turn) root.dataset.turn = turn.textContent;
  var ai = document.querySelector(".players .tag:not(.turn)");
  if (ai) root.dataset.ai = ai.textContent;
  setInterval(tick, 1000);
  tick();
  var source = null;
  if (window.EventSource && (root.dataset.status === "running" || root.dataset.status === "lobby")) {
    source = new EventSource(root.dataset.events);
    source.addEventListener("update", function (e) { show(JSON.parse(e.data)); });
  }
})();
