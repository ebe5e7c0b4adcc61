// A replay's step-through: buttons, the slider, the arrow keys (Home/End, PageUp/PageDown for chapters) and a swipe
// on the picture move between steps without reloading; each step's picture and narration come from the server.
// Without this script the same buttons are plain links (?step=N).
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root) return;
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var base = root.dataset.base;
  var steps = Number(root.dataset.steps);
  var step = Number(root.dataset.step);
  var frame = document.getElementById("frame");
  var counter = document.getElementById("counter");
  var slider = document.getElementById("slider");
  var template = root.dataset.counter;
  var cache = {};

  function picture(n) { return base + "/step/" + n + ".png"; }
  function preload(n) {
    if (n < 0 || n > steps || cache[n]) return;
    cache[n] = new Image();
    cache[n].src = picture(n);
  }

  function go(n, push) {
    n = Math.max(0, Math.min(steps, n));
    step = n;
    root.dataset.step = n;
    frame.src = picture(n);
    frame.alt = root.dataset.alt.replace("{step}", n).replace("{steps}", steps);
    counter.textContent = template.replace("{step}", n).replace("{steps}", steps);
    slider.value = n;
    var lines = document.getElementById("lines");
    lines.replaceChildren.apply(lines, (data.lines[n] || []).map(function (l) {
      var li = document.createElement("li");
      li.textContent = l;
      return li;
    }));
    document.getElementById("quiet").hidden = (data.lines[n] || []).length > 0;
    document.getElementById("first").href = "?step=0";
    document.getElementById("prev").href = "?step=" + Math.max(0, n - 1);
    document.getElementById("next").href = "?step=" + Math.min(steps, n + 1);
    var chapter = document.getElementById("chapter");
    if (chapter) chapter.href = "?step=" + nextChapter(n);
    if (push !== false) history.replaceState(null, "", "?step=" + n);
    preload(n + 1);
    preload(n + 2);
  }

  function nextChapter(n) {
    for (var i = 0; i < data.chapters.length; i++) if (data.chapters[i] > n) return data.chapters[i];
    return steps;
  }
  function previousChapter(n) {
    for (var i = data.chapters.length - 1; i >= 0; i--) if (data.chapters[i] < n) return data.chapters[i];
    return 0;
  }

  function click(id, target) {
    var el = document.getElementById(id);
    if (!el) return;
    el.addEventListener("click", function (e) { e.preventDefault(); go(target()); });
  }
  click("first", function () { return 0; });
  click("prev", function () { return step - 1; });
  click("next", function () { return step + 1; });
  click("last", function () { return steps; });
  click("chapter", function () { return nextChapter(step); });
  slider.addEventListener("input", function () { go(Number(slider.value)); });

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.target === slider) return;
    var to = { ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: steps,
               PageDown: nextChapter(step), PageUp: previousChapter(step) }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  });

  var startX = null, startY = null;
  frame.addEventListener("touchstart", function (e) {
    startX = e.changedTouches[0].clientX;
    startY = e.changedTouches[0].clientY;
  }, { passive: true });
  frame.addEventListener("touchend", function (e) {
    if (startX === null) return;
    var dx = e.changedTouches[0].clientX - startX, dy = e.changedTouches[0].clientY - startY;
    startX = null;
    if (Math.abs(dx) > 40 && Math.abs(dx) > Math.abs(dy)) go(dx < 0 ? step + 1 : step - 1);
  }, { passive: true });

  preload(step + 1);
})();
