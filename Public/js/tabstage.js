// TabStage's progressive enhancement. Every link and form works without this file; with it,
// a tab click or a page form fetches only the stage (tab bar + page) as an HTML fragment,
// swaps it in, updates the URL and keeps keyboard focus on the tab bar.
//
// The bar follows the WAI-ARIA "navigation with aria-current" pattern, not role="tablist":
// each tab is a real link to its own URL (it can be opened in a new tab, shared, bookmarked),
// and the tabs pattern is meant for panels inside one page. On top of the links we add a
// roving tabindex and arrow keys along the bar's axis, as the APG toolbar pattern does.
(function () {
  "use strict";

  var FRAGMENT_HEADER = "X-TabStage-Fragment";
  // Tells the server which entry path a selection came by (a bar tap or back/forward); a
  // plain GET is a typed or shared URL. Only a tap on the selected tab reselects it.
  var SOURCE_HEADER = "X-TabStage-Source";

  function withSource(source) {
    var headers = {};
    headers[SOURCE_HEADER] = source;
    return headers;
  }

  function stage() { return document.getElementById("stage"); }

  // The cells drawn now: the adaptive bar does not draw the cells of its other form (More in
  // the sidebar, the tabs in More in the bottom bar) nor those of a collapsed section.
  function tabLinks(bar) {
    return Array.prototype.slice.call(bar.querySelectorAll("a.tab")).filter(function (link) {
      return link.getClientRects().length > 0;
    });
  }

  // The adaptive layout's bar is a row below the stylesheet's breakpoint and a column above it.
  var SIDEBAR_QUERY = window.matchMedia("(min-width: 744px)");
  function isVerticalBar(bar) {
    return bar.dataset.axis === "adaptive" ? SIDEBAR_QUERY.matches : bar.dataset.axis === "vertical";
  }

  function currentTab(bar) {
    var links = tabLinks(bar);
    return links.filter(function (link) { return link.getAttribute("aria-current") === "page"; })[0] || links[0];
  }

  // Only one tab in the bar is in the Tab order: the current one (or the first drawn).
  function applyRovingTabindex() {
    var bar = document.querySelector(".tab-bar");
    if (!bar) return;
    var current = currentTab(bar);
    Array.prototype.forEach.call(bar.querySelectorAll("a.tab"), function (link) {
      link.tabIndex = link === current ? 0 : -1;
    });
  }

  function focusCurrentTab() {
    var bar = document.querySelector(".tab-bar");
    var current = bar && currentTab(bar);
    if (current) current.focus();
  }

  // The sidebar's sections collapse and expand with their disclosure buttons; a swapped-in
  // stage keeps what the visitor collapsed.
  var collapsedSections = {};
  function setSectionExpanded(toggle, expanded) {
    toggle.setAttribute("aria-expanded", expanded ? "true" : "false");
    var section = toggle.closest(".tab-section");
    if (section) section.classList.toggle("collapsed", !expanded);
    collapsedSections[toggle.getAttribute("aria-controls")] = !expanded;
  }
  function restoreSections() {
    Array.prototype.forEach.call(document.querySelectorAll(".section-toggle"), function (toggle) {
      if (collapsedSections[toggle.getAttribute("aria-controls")]) setSectionExpanded(toggle, false);
    });
  }
  document.addEventListener("click", function (event) {
    var toggle = event.target.closest && event.target.closest(".section-toggle");
    if (!toggle) return;
    setSectionExpanded(toggle, toggle.getAttribute("aria-expanded") !== "true");
    applyRovingTabindex();
  });
  SIDEBAR_QUERY.addEventListener("change", applyRovingTabindex);

  // The edit list: rows of tabs that move can be dragged onto another row of their list; the
  // drop posts the same move the buttons post, repeated (count). After any of its forms, the
  // focus comes back to the same button of the same tab, so a keyboard can go on moving it.
  var lastEditButton = null;
  var lastAction = null;
  var draggedRow = null;
  function movableRows(list) {
    return Array.prototype.slice.call(list.querySelectorAll(".edit-row[data-movable]:not([data-hidden])"));
  }
  function enableDragging() {
    Array.prototype.forEach.call(document.querySelectorAll(".edit-row[data-movable]:not([data-hidden])"),
      function (row) { row.draggable = true; });
  }
  function restoreEditFocus() {
    if (!lastEditButton) return false;
    var row = document.querySelector('.edit-row[data-tab="' + lastEditButton.tab + '"]');
    lastEditButton = null;
    if (!row) return false;
    var buttons = Array.prototype.slice.call(row.querySelectorAll("button:not([disabled])"));
    // Hide becomes Show on the same row, and the other way round.
    var wanted = { hide: "show", show: "hide" }[lastAction] || lastAction;
    var same = buttons.filter(function (button) {
      return button.dataset.action === lastAction || button.dataset.action === wanted;
    })[0];
    var target = same || buttons[0];
    if (target) target.focus();
    return Boolean(target);
  }
  function dropTarget(event) {
    var row = event.target.closest && event.target.closest(".edit-row[data-movable]:not([data-hidden])");
    if (!row || !draggedRow || row === draggedRow || row.parentNode !== draggedRow.parentNode) return null;
    return row;
  }
  document.addEventListener("dragstart", function (event) {
    var row = event.target.closest && event.target.closest(".edit-row[draggable=\"true\"]");
    if (!row) return;
    draggedRow = row;
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", row.dataset.tab);
  });
  document.addEventListener("dragover", function (event) {
    if (dropTarget(event)) event.preventDefault();
  });
  document.addEventListener("drop", function (event) {
    var row = dropTarget(event);
    if (!row) return;
    event.preventDefault();
    var rows = movableRows(row.parentNode);
    var steps = rows.indexOf(row) - rows.indexOf(draggedRow);
    var form = draggedRow.querySelector("form");
    draggedRow = null;
    if (!form || steps === 0) return;
    var fields = [["action", steps < 0 ? "up" : "down"], ["count", String(Math.abs(steps))]].map(function (pair) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = pair[0];
      input.value = pair[1];
      form.insertBefore(input, form.firstChild);
      return input;
    });
    form.requestSubmit();
    fields.forEach(function (input) { input.remove(); });
  });
  document.addEventListener("dragend", function () { draggedRow = null; });

  // Everything outside the stage that names the page's path follows the swap: the header's
  // log-in link and log-out form come back to the tab now on screen, not the first one loaded.
  function followPath(url) {
    var path = new URL(url, window.location.href).pathname;
    var header = document.querySelector(".stage-header");
    if (!header) return;
    var login = header.querySelector("a.login-link");
    if (login) login.setAttribute("href", "/login?next=" + encodeURIComponent(path));
    Array.prototype.forEach.call(header.querySelectorAll('form input[name="next"]'), function (field) {
      field.value = path;
    });
  }

  // A refused tab arrives as a sheet (an open <dialog>) over the page that stays selected.
  // Shown modal, it holds the focus; closing it (Escape, Cancel) puts the focus back on the
  // tab that was refused, and a page loaded at the refused URL goes back to the selected one.
  function presentSheet() {
    var sheet = document.getElementById("login-sheet");
    if (!sheet || typeof sheet.showModal !== "function") return false;
    // A follower's copy of the presenter's sheet stays as drawn: open, inert, not modal.
    if (sheet.closest("[data-inert]")) return false;
    var back = sheet.querySelector("a.sheet-close");
    var returnURL = back ? back.href : null;
    sheet.close();
    sheet.showModal();
    sheet.addEventListener("close", function () {
      // The close() above queues a close event of its own; the sheet is open again by then.
      if (sheet.open) return;
      sheet.remove();
      if (returnURL && window.location.href !== returnURL) {
        history.replaceState({ tabstage: true }, "", returnURL);
        followPath(returnURL);
      }
      // A presenter's followers see the sheet until the server hears it closed: the page it
      // leaves shown is read again (the same tab, no tap), which they then see.
      if (returnURL && document.querySelector(".live-presenting")) load(returnURL, { method: "GET" }, "none", null);
      var tab = document.querySelector('.tab-bar a.tab[data-tab="' + sheet.dataset.tab + '"]') ||
        document.querySelector('.tab-bar a.tab[aria-current="page"]');
      if (tab) tab.focus();
    });
    if (back) {
      back.addEventListener("click", function (event) {
        event.preventDefault();
        sheet.close();
      });
    }
    return true;
  }

  // The page's one live region (#announcer, outside the stage): a message is set after a pause
  // on an emptied region, so the same words said twice are heard twice.
  function announce(message) {
    var region = document.getElementById("announcer");
    if (!region) return;
    region.textContent = "";
    if (!message) return;
    window.setTimeout(function () { region.textContent = message; }, 100);
  }

  function textOf(selector) {
    var element = document.querySelector(selector);
    return element ? element.textContent.trim() : "";
  }

  // What an action did: the notice it left, else the lines the page marks as its outcome.
  function outcome() {
    var notice = textOf("#page .notice");
    if (notice) return notice;
    return Array.prototype.map.call(document.querySelectorAll("#page [data-announce]"), function (line) {
      return line.textContent.trim();
    }).join(" ");
  }

  function hiddenValue(form, name) {
    var field = form.querySelector('input[type="hidden"][name="' + name + '"]');
    return field ? field.value : null;
  }

  // Which control of which form acted, to find it again in the page that comes back: the form
  // by its URL and hidden fields, the control by its tag, name and (for a button) value.
  function controlKey(form) {
    var active = document.activeElement;
    var key = { action: form.getAttribute("action"), kind: hiddenValue(form, "action"), item: hiddenValue(form, "item") };
    if (active && form.contains(active)) {
      key.tag = active.tagName;
      key.name = active.getAttribute("name");
      key.value = active.tagName === "BUTTON" ? active.value : null;
    }
    return key;
  }

  // The control again, or its replacement: the form's first button, the row's link when the
  // row lost its form (an item marked read).
  function findControl(key) {
    var forms = document.querySelectorAll("#stage form[data-fragment]");
    for (var index = 0; index < forms.length; index += 1) {
      var form = forms[index];
      if (form.getAttribute("action") !== key.action || hiddenValue(form, "action") !== key.kind ||
        hiddenValue(form, "item") !== key.item) continue;
      var controls = form.querySelectorAll("button, input:not([type=hidden])");
      for (var at = 0; at < controls.length; at += 1) {
        var control = controls[at];
        if (control.tagName === key.tag && control.getAttribute("name") === key.name &&
          (key.value === null || control.value === key.value)) return control;
      }
      return form.querySelector("button");
    }
    if (key.item) return document.querySelector('#page a.item-link[href$="/' + key.item + '"]');
    return null;
  }

  function swap(html, url, how, focusTarget) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var incoming = holder.querySelector("#stage");
    var current = stage();
    if (!incoming || !current) { window.location.assign(url); return; }
    var oldPage = document.getElementById("page");
    var pageScroll = oldPage ? oldPage.scrollTop : 0;
    current.replaceWith(incoming);
    if (incoming.dataset.title) document.title = incoming.dataset.title;
    // A refusal changes no selection, so it adds no history entry: the URL stays the page's.
    var refused = document.getElementById("login-sheet") !== null;
    if (!refused) {
      if (how === "push") history.pushState({ tabstage: true }, "", url);
      if (how === "replace") history.replaceState({ tabstage: true }, "", url);
      followPath(url);
    }
    restoreSections();
    enableDragging();
    applyRovingTabindex();
    if (refused) {
      announce(textOf("#login-sheet .notice"));
      if (presentSheet()) return;
    }
    var page = document.getElementById("page");
    if (focusTarget === "tab") {
      focusCurrentTab();
      announce(textOf("#page-title"));
    } else if (focusTarget === "page") {
      if (page) page.focus();
      announce(textOf("#page-title"));
    } else if (focusTarget) {
      // A page action: the page stays where it was scrolled, the focus where the visitor
      // acted, and the outcome is said.
      if (page) page.scrollTop = pageScroll;
      // An edit row's move, hide or show: the same action's button on the row that moved.
      if (restoreEditFocus()) return;
      var control = findControl(focusTarget);
      if (control) control.focus({ preventScroll: true });
      else if (page) page.focus({ preventScroll: true });
      announce(outcome());
    }
  }

  // Fetches a fragment; anything unexpected falls back to an ordinary page load. While one is
  // on its way the document says so (`data-navigating`), and each one counts in
  // `data-navigations`: the live script below neither re-reads the page meanwhile nor applies a
  // re-read that a navigation overtook (it would put back the page the visitor just left).
  function load(url, options, how, focusTarget) {
    options.headers = options.headers || {};
    options.headers[FRAGMENT_HEADER] = "1";
    options.credentials = "same-origin";
    var root = document.documentElement;
    root.dataset.navigations = String(Number(root.dataset.navigations || 0) + 1);
    root.dataset.navigating = String(Number(root.dataset.navigating || 0) + 1);
    function arrived() { root.dataset.navigating = String(Number(root.dataset.navigating) - 1); }
    return fetch(url, options).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      if (!response.headers.get(FRAGMENT_HEADER) || type.indexOf("text/html") !== 0) {
        window.location.assign(response.url || url);
        return;
      }
      return response.text().then(function (html) {
        swap(html, response.url || url, how, focusTarget);
      });
    }).catch(function () { window.location.assign(url); }).then(arrived);
  }

  function sameOrigin(url) { return new URL(url, window.location.href).origin === window.location.origin; }

  document.addEventListener("click", function (event) {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    // The bar's cells and the More list's rows are taps on a tab; a stage link moves within it.
    var link = event.target.closest && event.target.closest("a.tab, a.more-row, a[data-stage-link]");
    if (!link || !sameOrigin(link.href)) return;
    event.preventDefault();
    // A list item's link and Back move within the tab's stack: a URL entry, not a bar tap.
    if (link.hasAttribute("data-stage-link")) {
      load(link.href, { method: "GET" }, "push", "page");
      return;
    }
    // A More row is no bar tap: the More navigation controller pushes its tab.
    var source = link.classList.contains("more-row") ? "more" : "tap";
    load(link.href, { method: "GET", headers: withSource(source) }, "push", "tab");
  });

  // Page forms (search, top-up, mark read...) post back and follow the 303 as a fragment.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("#stage form[data-fragment]")) return;
    event.preventDefault();
    var editRow = form.closest(".edit-row");
    lastEditButton = editRow ? { tab: editRow.dataset.tab } : null;
    lastAction = event.submitter ? event.submitter.dataset.action : null;
    var body = new URLSearchParams(new FormData(form, event.submitter || null));
    var method = (form.getAttribute("method") || "GET").toUpperCase();
    // Read the attribute: the page forms have a field named "action", which shadows form.action.
    var action = new URL(form.getAttribute("action") || "", window.location.href).href;
    var key = controlKey(form);
    if (method === "GET") {
      var target = new URL(action);
      target.search = body.toString();
      load(target.href, { method: "GET" }, "push", key);
    } else {
      load(action, { method: "POST", body: body }, "replace", key);
    }
  });

  document.addEventListener("keydown", function (event) {
    var link = event.target.closest && event.target.closest(".tab-bar a.tab");
    if (!link) return;
    var bar = link.closest(".tab-bar");
    var vertical = isVerticalBar(bar);
    var links = tabLinks(bar);
    var index = links.indexOf(link);
    var next = null;
    switch (event.key) {
      case "ArrowDown": if (vertical) next = links[(index + 1) % links.length]; break;
      case "ArrowUp": if (vertical) next = links[(index - 1 + links.length) % links.length]; break;
      case "ArrowRight": if (!vertical) next = links[(index + 1) % links.length]; break;
      case "ArrowLeft": if (!vertical) next = links[(index - 1 + links.length) % links.length]; break;
      case "Home": next = links[0]; break;
      case "End": next = links[links.length - 1]; break;
      default: return;
    }
    if (!next) return;
    event.preventDefault();
    links.forEach(function (other) { other.tabIndex = other === next ? 0 : -1; });
    next.focus();
  });

  // Back and forward: ask the server for the stage at that URL, which also selects the tab
  // there through the same container rules as a click.
  // An in-page link (the skip link, a fragment) makes an entry of its own without our state:
  // the stage on screen is already that URL's.
  window.addEventListener("popstate", function (event) {
    if (!event.state || !event.state.tabstage) return;
    load(window.location.href, { method: "GET", headers: withSource("history") }, "none", "tab");
  });

  // A presenter's "Copy link" (shown only with this script): the follow link to the clipboard,
  // through a selected field where the Clipboard API is not offered (plain http on a LAN address).
  document.documentElement.dataset.script = "on";
  function copyText(text) {
    var field = document.createElement("textarea");
    field.value = text;
    field.setAttribute("readonly", "");
    field.style.position = "fixed";
    field.style.opacity = "0";
    document.body.appendChild(field);
    field.select();
    var done = false;
    try { done = document.execCommand("copy"); } catch (error) { done = false; }
    field.remove();
    return done;
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".copy-link[data-copy]");
    if (!button) return;
    var text = button.dataset.copy;
    function copied() {
      button.textContent = button.dataset.copied;
      announce(button.dataset.copied);
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(copied, function () { if (copyText(text)) copied(); });
    } else if (copyText(text)) {
      copied();
    }
  });

  history.replaceState({ tabstage: true }, "", window.location.href);
  enableDragging();
  applyRovingTabindex();
  presentSheet();
})();

// ---------------------------------------------------------------------------------------------
// Live pages (docs/live.md). Separate from the script above on purpose: it only listens to the
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
  function refresh() {
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
          // A navigation since the read began shows a newer page than this read.
          if (navigations() !== began) return;
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

  function showFollowers(count) {
    var place = document.querySelector("[data-followers]");
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

// ---------------------------------------------------------------------------------------------
// The stage (/{app}/stage, docs/stage.md). Separate from the scripts above: it runs only on the
// stage page, whose two frames are ordinary tab pages (each with the script above). When one
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
  function readTimeline() {
    if (reading) { readAgain = true; return; }
    reading = true;
    fetch(window.location.pathname, { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html) return;
        var incoming = new DOMParser().parseFromString(html, "text/html").getElementById("timeline");
        var current = document.getElementById("timeline");
        if (!incoming || !current) return;
        Array.prototype.forEach.call(incoming.querySelectorAll(".timeline-steps li"), function (step) {
          if ((Number(step.getAttribute("value")) || 0) > seenSteps) step.classList.add("step-fresh");
        });
        seenSteps = Math.max(seenSteps, highestStep(incoming));
        current.replaceWith(incoming);
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
