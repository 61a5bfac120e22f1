// The live part of a screen, sent again by the server (server-sent events) whenever the fight changes, or as the
// answer to a form (htmx). What the user was doing survives the swap: what was typed, picked or ticked (fields
// marked data-keep), which panels were open (details marked data-keep), which field had the focus. An older frame
// never replaces a newer one. A tap on a mark of the board shows its why under the board.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live) { return; }

  function rev(root) {
    var s = root.querySelector(".screen");
    return s ? parseInt(s.getAttribute("data-rev"), 10) : -1;
  }

  function save(root) {
    var state = { fields: {}, open: {}, focused: null };
    root.querySelectorAll("input[data-keep], select[data-keep]").forEach(function (i) {
      var k = i.getAttribute("data-keep");
      if (i.type === "radio") {
        if (i.checked) { state.fields[k] = i.value; }
      } else if (i.type === "checkbox") {
        state.fields[k] = i.checked ? "1" : "";
      } else if (i.value) {
        state.fields[k] = i.value;
      }
    });
    root.querySelectorAll("details[data-keep]").forEach(function (d) {
      state.open[d.getAttribute("data-keep")] = d.open;
    });
    var a = document.activeElement;
    if (a && a.getAttribute && root.contains(a)) { state.focused = a.getAttribute("data-keep"); }
    return state;
  }

  function restore(root, state) {
    root.querySelectorAll("input[data-keep], select[data-keep]").forEach(function (i) {
      var k = i.getAttribute("data-keep");
      if (!(k in state.fields)) { return; }
      if (i.type === "radio") {
        i.checked = i.value === state.fields[k];
      } else if (i.type === "checkbox") {
        i.checked = state.fields[k] === "1";
      } else {
        i.value = state.fields[k];
      }
      if (k === state.focused && i.type !== "radio") { i.focus(); }
    });
    root.querySelectorAll("details[data-keep]").forEach(function (d) {
      var k = d.getAttribute("data-keep");
      if (k in state.open) { d.open = state.open[k]; }
    });
  }

  // a tap (or a key press on a focused mark) shows the mark's title, its line and why, under its board
  live.addEventListener("click", function (e) {
    var mark = e.target.closest ? e.target.closest(".bd-mk, .bd-bar, .bd-col") : null;
    var board = mark ? mark.closest(".board") : null;
    if (!board) { return; }
    var title = mark.querySelector("title");
    var out = board.querySelector(".board-why");
    if (title && out) { out.textContent = title.textContent; }
  });

  var kept = null;
  document.body.addEventListener("htmx:beforeSwap", function () { kept = save(live); });
  document.body.addEventListener("htmx:afterSwap", function () {
    if (kept) { restore(live, kept); kept = null; }
  });

  if (!window.EventSource) { return; }
  var source = new EventSource(live.getAttribute("data-stream"));
  source.addEventListener("live", function (e) {
    var holder = document.createElement("div");
    holder.innerHTML = e.data;
    if (rev(holder) < rev(live)) { return; }
    var state = save(live);
    live.replaceChildren.apply(live, Array.prototype.slice.call(holder.childNodes));
    restore(live, state);
    if (window.htmx) { window.htmx.process(live); }
  });
})();
