// The live part of a screen, sent again by the server (server-sent events) whenever the fight changes.
// What the user was typing survives the swap (inputs marked data-keep); an older frame never replaces a newer one.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.EventSource) { return; }
  function rev(root) {
    var s = root.querySelector(".screen");
    return s ? parseInt(s.getAttribute("data-rev"), 10) : -1;
  }
  var source = new EventSource(live.getAttribute("data-stream"));
  source.addEventListener("live", function (e) {
    var holder = document.createElement("div");
    holder.innerHTML = e.data;
    if (rev(holder) < rev(live)) { return; }
    var kept = {};
    var focused = document.activeElement && document.activeElement.getAttribute ?
      document.activeElement.getAttribute("data-keep") : null;
    live.querySelectorAll("[data-keep]").forEach(function (i) { kept[i.getAttribute("data-keep")] = i.value; });
    live.replaceChildren.apply(live, Array.prototype.slice.call(holder.childNodes));
    live.querySelectorAll("[data-keep]").forEach(function (i) {
      var k = i.getAttribute("data-keep");
      if (kept[k]) { i.value = kept[k]; }
      if (k === focused) { i.focus(); }
    });
    if (window.htmx) { window.htmx.process(live); }
  });
})();
