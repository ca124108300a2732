// The stage (/{app}/stage, docs/stage.md). Separate from tabstage.js and live.js: it runs only on the
// stage page, whose two frames are ordinary tab pages (each with those scripts). When one
// frame changes (a fragment swapped in, or a page loaded in it), the stage reads its timeline
// again and, unless the pages keep themselves in step (live pages: their #stage carries
// data-version), shows the session's state in the other frame through the layout's entry,
// which leads to the selected tab. Without JavaScript each frame is still a working page and
// the timeline is current on every load of the stage.
(function () {
  "use strict";

  var showcase = document.querySelector(".showcase[data-app]");
  if (!showcase || !window.fetch || !window.DOMParser || !window.MutationObserver) return;
  var frames = Array.prototype.slice.call(showcase.querySelectorAll("iframe.showcase-frame"));
  var seenSteps = highestStep(document);

  function highestStep(root) {
    var highest = 0;
    Array.prototype.forEach.call(root.querySelectorAll(".timeline-steps li"), function (step) {
      highest = Math.max(highest, Number(step.getAttribute("value")) || 0);
    });
    return highest;
  }

  // One read of the timeline at a time; a change meanwhile asks for one more after it.
  var reading = false;
  var readAgain = false;
  // The timeline keeps its newest step in view: it follows the end unless the presenter scrolled
  // back (then it stays where they are). Its switches are outside the part read again.
  var STEPS = "timeline-steps";
  function atEnd(box) { return box.scrollTop + box.clientHeight >= box.scrollHeight - 8; }
  function toEnd() {
    var box = document.getElementById(STEPS);
    if (box) box.scrollTop = box.scrollHeight;
  }
  var following = true;
  function watchScroll() {
    var box = document.getElementById(STEPS);
    if (box) box.addEventListener("scroll", function () { following = atEnd(box); });
  }
  toEnd();
  watchScroll();
  document.addEventListener("change", function (event) {
    if (event.target && event.target.closest && event.target.closest("#timeline") && following) toEnd();
  });

  function readTimeline() {
    if (reading) { readAgain = true; return; }
    reading = true;
    fetch(window.location.pathname, { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html) return;
        var incoming = new DOMParser().parseFromString(html, "text/html").getElementById(STEPS);
        var current = document.getElementById(STEPS);
        if (!incoming || !current) return;
        Array.prototype.forEach.call(incoming.querySelectorAll(".timeline-steps li"), function (step) {
          if ((Number(step.getAttribute("value")) || 0) > seenSteps) step.classList.add("step-fresh");
        });
        seenSteps = Math.max(seenSteps, highestStep(incoming));
        var kept = current.scrollTop;
        current.replaceWith(incoming);
        if (following) toEnd(); else incoming.scrollTop = kept;
        watchScroll();
      })
      .catch(function () { /* the next change reads it again */ })
      .then(function () {
        reading = false;
        if (readAgain) { readAgain = false; readTimeline(); }
      });
  }

  function layoutEntry(frame) {
    var parts = frame.contentWindow.location.pathname.split("/").filter(Boolean);
    return parts.length >= 2 ? "/" + parts[0] + "/" + parts[1] : frame.getAttribute("src");
  }

  function keepsItselfInStep(frame) {
    var page = frame.contentDocument;
    return !!(page && page.querySelector("#stage[data-version]"));
  }

  // A frame the stage itself reloaded reports that load as a change: it is not passed on.
  var followingStage = new Map();
  function changed(frame) {
    readTimeline();
    if (followingStage.get(frame)) { followingStage.set(frame, false); return; }
    if (keepsItselfInStep(frame)) return;
    frames.forEach(function (other) {
      if (other === frame || !other.contentWindow) return;
      followingStage.set(other, true);
      other.contentWindow.location.replace(layoutEntry(other));
    });
  }

  // A swap of the page's #stage (a tap, a page form, a live refresh) shows as a new child of
  // the frame's body.
  function watch(frame) {
    var page = frame.contentDocument;
    if (!page || !page.body) return;
    new MutationObserver(function (records) {
      var swapped = records.some(function (record) {
        return Array.prototype.some.call(record.addedNodes, function (node) { return node.id === "stage"; });
      });
      if (swapped) changed(frame);
    }).observe(page.body, { childList: true });
  }

  frames.forEach(function (frame) {
    var loads = 0;
    frame.addEventListener("load", function () {
      loads += 1;
      watch(frame);
      // The first load of each frame is the stage opening, not a change to pass on.
      if (loads > 1) changed(frame); else readTimeline();
    });
    var page = frame.contentDocument;
    if (page && page.readyState === "complete" && page.location.href !== "about:blank") {
      loads = 1;
      watch(frame);
    }
  });
})();
