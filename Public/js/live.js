// Live pages (docs/live.md). Separate from tabstage.js on purpose: it only listens to the
// page's event stream and re-reads the page, in place, when the state it shows has changed
// (another window of the session, the presenter a follower watches, an app file replaced).
// Without it, and without JavaScript, every page is exactly the page above.
(function () {
  "use strict";

  if (!window.EventSource || !window.fetch || !window.DOMParser) return;

  var segments = window.location.pathname.split("/").filter(Boolean);
  var stageElement = document.getElementById("stage");
  var app = segments[0];
  var kind = null;
  var streamPath = null;
  if (stageElement && stageElement.dataset.version !== undefined) {
    if (segments[1] === "follow" && segments.length === 3) {
      kind = "follow";
      streamPath = "/" + app + "/follow/" + segments[2] + "/live";
    } else {
      kind = "stage";
      streamPath = "/" + app + "/live";
    }
  } else if (segments.length === 2 && segments[1] === "events") {
    kind = "events";
    streamPath = "/" + app + "/live";
  }
  if (!kind) return;

  function currentVersion() {
    var stage = document.getElementById("stage");
    return stage ? stage.dataset.version : undefined;
  }

  // Where the current state of this window is read: the layout's entry leads to the selected
  // tab; the More list and the follow and event pages are read where they are.
  function refreshPath() {
    var parts = window.location.pathname.split("/").filter(Boolean);
    if (kind === "stage" && parts.length === 3 && parts[2] !== "_more") return "/" + parts[0] + "/" + parts[1];
    // The event log keeps its filter (`?kind=`).
    if (kind === "events") return window.location.pathname + window.location.search;
    return window.location.pathname;
  }

  // A key that finds "the same" control in the new markup: its id, its name, its link target,
  // or its place among the focusable elements of the region.
  var FOCUSABLE = "a[href], button, input, select, textarea, [tabindex]";
  function focusKey(region) {
    var active = document.activeElement;
    if (!active || !region.contains(active)) return null;
    if (active.id) return { id: active.id };
    if (active.name) return { selector: active.tagName.toLowerCase() + '[name="' + CSS.escape(active.name) + '"]' };
    if (active.getAttribute("href")) return { selector: 'a[href="' + CSS.escape(active.getAttribute("href")) + '"]' };
    return { index: Array.prototype.indexOf.call(region.querySelectorAll(FOCUSABLE), active) };
  }

  function restoreFocus(region, key) {
    if (!key) return;
    var target = null;
    if (key.id) target = document.getElementById(key.id);
    else if (key.selector) target = region.querySelector(key.selector);
    else if (key.index >= 0) target = region.querySelectorAll(FOCUSABLE)[key.index] || null;
    if (target && target.focus) target.focus({ preventScroll: true });
  }

  // Swaps `selector`'s element for the incoming document's, keeping focus and scroll.
  function swapRegion(incoming, selector) {
    var current = document.querySelector(selector);
    var replacement = incoming.querySelector(selector);
    if (!current || !replacement) return;
    var key = focusKey(current);
    var page = current.querySelector("#page");
    var pageScroll = page ? page.scrollTop : 0;
    current.replaceWith(replacement);
    var newPage = replacement.querySelector("#page");
    if (newPage) newPage.scrollTop = pageScroll;
    restoreFocus(replacement, key);
  }

  function applyDocument(html, url) {
    var incoming = new DOMParser().parseFromString(html, "text/html");
    var scrollX = window.scrollX, scrollY = window.scrollY;
    swapRegion(incoming, ".stage-header");
    swapRegion(incoming, kind === "events" ? "main" : "#stage");
    // The presenter's panel changes only when presenting starts or stops: an unchanged one is
    // kept, so a click on its button is not lost to a refresh.
    var panel = document.getElementById("presenter");
    var newPanel = incoming.getElementById("presenter");
    if (!panel || !newPanel || !panel.isEqualNode(newPanel)) swapRegion(incoming, "#presenter");
    swapTheme(incoming);
    document.title = incoming.title;
    if (incoming.documentElement.lang) document.documentElement.lang = incoming.documentElement.lang;
    // The appearance may change with the state (a follower's page follows the presenter's).
    var appearance = incoming.documentElement.getAttribute("data-appearance");
    if (appearance) document.documentElement.setAttribute("data-appearance", appearance);
    else document.documentElement.removeAttribute("data-appearance");
    if (url && url !== window.location.href) history.replaceState({ tabstage: true }, "", url);
    window.scrollTo(scrollX, scrollY);
    applyInert();
    var bar = document.querySelector(".tab-bar");
    if (bar) {
      var links = Array.prototype.slice.call(bar.querySelectorAll("a.tab"));
      var selected = bar.querySelector('a.tab[aria-current="page"]') || links[0];
      links.forEach(function (link) { link.tabIndex = link === selected ? 0 : -1; });
    }
  }

  // A new tint is a new theme URL (`?tint=`): the new sheet goes in after the old ones, which
  // leave once it has loaded, so the page never shows without a tint in between.
  var THEME = 'link[rel="stylesheet"][href^="/theme/"]';
  function swapTheme(incoming) {
    var wanted = incoming.querySelector(THEME);
    var sheets = Array.prototype.slice.call(document.querySelectorAll(THEME));
    var last = sheets[sheets.length - 1];
    if (!wanted || !last || last.getAttribute("href") === wanted.getAttribute("href")) return;
    var link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = wanted.getAttribute("href");
    link.addEventListener("load", function () {
      sheets.forEach(function (sheet) { sheet.remove(); });
    }, { once: true });
    last.after(link);
  }

  // Where the presenter tapped, on a follower's page that just caught up: the cell of a sheet's
  // tab, else the cell that became current (a tab, More), else the heading of a pushed screen.
  function shownKey() {
    var sheet = document.getElementById("login-sheet");
    var cell = document.querySelector('.tab-bar a.tab[aria-current="page"]');
    var heading = document.getElementById("page-title");
    return [sheet ? sheet.dataset.tab : "", cell ? cell.dataset.tab : "", heading ? heading.textContent : ""];
  }
  function showTap(before) {
    var after = shownKey();
    var target = null;
    if (after[0] && after[0] !== before[0]) target = document.querySelector('.tab-bar a.tab[data-tab="' + CSS.escape(after[0]) + '"]');
    else if (after[1] !== before[1]) target = document.querySelector('.tab-bar a.tab[aria-current="page"]');
    else if (after[2] !== before[2]) target = document.getElementById("page-title");
    if (!target) return;
    // Which control it was, for a reader of the page (a test, a style).
    document.documentElement.dataset.presenterTapped = target.dataset.tab || target.id;
    target.classList.remove("tap-ripple");
    void target.offsetWidth; // restarts the animation
    target.classList.add("tap-ripple");
    window.setTimeout(function () { target.classList.remove("tap-ripple"); }, 700);
  }

  // A follower's bar and page (marked in the markup) take no input at all.
  function applyInert() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-inert]"), function (part) { part.inert = true; });
  }

  // The window's own navigation (the script above): one on its way, and how many began.
  function navigating() { return Number(document.documentElement.dataset.navigating || 0) > 0; }
  function navigations() { return document.documentElement.dataset.navigations || "0"; }

  var loading = false;
  var again = false;
  // A sheet (the log-in a refused tab asked for) stays until the visitor logs in or cancels: a
  // change meanwhile is read once it closes. A follower's copy of the presenter's sheet is the
  // presenter's to close: their page follows as ever.
  function openSheet() {
    if (kind === "follow") return null;
    var sheet = document.getElementById("login-sheet");
    return sheet && sheet.open ? sheet : null;
  }
  function refresh() {
    var sheet = openSheet();
    if (sheet) {
      sheet.addEventListener("close", function () { window.setTimeout(refresh, 0); }, { once: true });
      return;
    }
    if (loading) { again = true; return; }
    loading = true;
    var began = navigations();
    fetch(refreshPath(), { headers: { "X-TabStage-Live": "1" }, credentials: "same-origin" })
      .then(function (response) {
        // A follow page that is not found while its stream is down is a server still coming
        // back (the presenter's pages set the code again): only a live stream's word ends it.
        if (kind === "follow" && !response.ok) {
          if (document.documentElement.dataset.live === "open") window.location.reload();
          return;
        }
        return response.text().then(function (html) {
          // A navigation since the read began shows a newer page than this read; a sheet opened
          // meanwhile stays.
          if (navigations() !== began) return;
          if (openSheet()) { again = true; return; }
          var before = kind === "follow" ? shownKey() : null;
          applyDocument(html, response.url);
          if (before) showTap(before);
        });
      })
      .catch(function () { /* the next notice, or the reconnect, tries again */ })
      .then(function () {
        loading = false;
        if (again) { again = false; refresh(); }
      });
  }

  function isChinese() { return (document.documentElement.lang || "").indexOf("zh") === 0; }

  // The app file's problems, above everything, until the file is fixed.
  function showProblems(text) {
    var banner = document.getElementById("live-problems");
    if (!text) { if (banner) banner.remove(); return; }
    if (!banner) {
      banner = document.createElement("div");
      banner.id = "live-problems";
      banner.className = "live-problems";
      banner.setAttribute("role", "alert");
      document.body.insertBefore(banner, document.body.firstChild);
    }
    banner.textContent = "";
    var lead = document.createElement("p");
    lead.textContent = isChinese()
      ? "應用程式描述檔有問題；目前顯示的是最後一個有效的版本："
      : "The app file has problems; the last good version is shown:";
    var list = document.createElement("ul");
    text.split("\n").forEach(function (line) {
      var item = document.createElement("li");
      item.textContent = line;
      list.appendChild(item);
    });
    banner.appendChild(lead);
    banner.appendChild(list);
  }

  // A stage's frame tells the stage's own presenter panel, beside the devices.
  function followerPlace() {
    var place = document.querySelector("[data-followers]");
    if (place || window.parent === window) return place;
    try { return window.parent.document.querySelector("[data-followers]"); } catch (error) { return null; }
  }

  function showFollowers(count) {
    var place = followerPlace();
    if (!place) return;
    var n = parseInt(count, 10) || 0;
    place.textContent = isChinese() ? n + " 人觀看中" : (n === 1 ? "1 person following" : n + " people following");
  }

  // `REVISION-GENERATION` -> [revision, generation], or null.
  function parseVersion(text) {
    var parts = (text || "").split("-");
    if (parts.length !== 2) return null;
    return [parseInt(parts[0], 10), parseInt(parts[1], 10)];
  }

  // A window's own change is announced while its own answer is on the way: wait a moment, then
  // re-read only if the page on screen is still older than the notice.
  var SETTLE_MS = 120;
  var newest = null;
  var settling = false;
  function heard(id) {
    newest = id || null;
    if (settling) return;
    settling = true;
    window.setTimeout(function () {
      settling = false;
      // The window's own answer is still on its way: look again once it may have come.
      if (navigating()) { heard(newest); return; }
      var shown = parseVersion(currentVersion());
      var told = parseVersion(newest);
      if (shown && told && shown[1] === told[1] && shown[0] >= told[0]) return;
      refresh();
    }, SETTLE_MS);
  }

  // A refused stream (503 past the server's limit, 404 for an ended presentation) is not
  // retried by the browser: the page checks itself, and tries again later.
  var RETRY_REFUSED_MS = 30000;

  // A follower is told while their stream is down ("Reconnecting…"), and their page keeps what
  // it shows. A follow stream refused (the server back, its code not set again yet) is tried
  // every second for a while before the page is read again, which then says if it ended.
  var FOLLOW_RETRIES = 30;
  var followRetries = 0;
  function showReconnecting(down) {
    var place = document.getElementById("live-reconnecting");
    if (!down || kind !== "follow") { if (place) place.remove(); return; }
    if (place) return;
    var banner = document.querySelector(".follow-banner");
    if (!banner) return;
    place = document.createElement("p");
    place.id = "live-reconnecting";
    place.className = "live-reconnecting";
    place.textContent = isChinese() ? "重新連線中…" : "Reconnecting…";
    banner.appendChild(place);
  }

  function listen() {
    var version = currentVersion();
    var source = new EventSource(streamPath + (version ? "?v=" + encodeURIComponent(version) : ""));
    // Says on the document whether the page is live now (a style or a test may read it).
    source.addEventListener("open", function () {
      document.documentElement.dataset.live = "open";
      followRetries = 0;
      showReconnecting(false);
    });
    source.addEventListener("error", function () {
      document.documentElement.dataset.live = "reconnecting";
      showReconnecting(true);
      if (source.readyState !== EventSource.CLOSED) return;
      if (kind === "follow" && followRetries < FOLLOW_RETRIES) {
        followRetries += 1;
        window.setTimeout(listen, 1000);
        return;
      }
      if (kind === "follow") { window.location.reload(); return; }
      refresh();
      window.setTimeout(listen, RETRY_REFUSED_MS);
    });
    source.addEventListener("change", function (event) { heard(event.lastEventId); });
    source.addEventListener("problems", function (event) { showProblems(event.data); });
    source.addEventListener("followers", function (event) { showFollowers(event.data); });
    source.addEventListener("ended", function () { source.close(); window.location.reload(); });
  }

  applyInert();
  listen();
})();
