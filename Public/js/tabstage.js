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

  function tabLinks(bar) { return Array.prototype.slice.call(bar.querySelectorAll("a.tab")); }

  // Only one tab in the bar is in the Tab order: the current one (or the first).
  function applyRovingTabindex() {
    var bar = document.querySelector(".tab-bar");
    if (!bar) return;
    var links = tabLinks(bar);
    var current = bar.querySelector('a.tab[aria-current="page"]') || links[0];
    links.forEach(function (link) { link.tabIndex = link === current ? 0 : -1; });
  }

  function focusCurrentTab() {
    var current = document.querySelector('.tab-bar a.tab[aria-current="page"]') ||
      document.querySelector(".tab-bar a.tab");
    if (current) current.focus();
  }

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

  function swap(html, url, how, focusTarget) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var incoming = holder.querySelector("#stage");
    var current = stage();
    if (!incoming || !current) { window.location.assign(url); return; }
    current.replaceWith(incoming);
    if (incoming.dataset.title) document.title = incoming.dataset.title;
    // A refusal changes no selection, so it adds no history entry: the URL stays the page's.
    var refused = document.getElementById("login-sheet") !== null;
    if (!refused) {
      if (how === "push") history.pushState({ tabstage: true }, "", url);
      if (how === "replace") history.replaceState({ tabstage: true }, "", url);
      followPath(url);
    }
    applyRovingTabindex();
    if (refused && presentSheet()) return;
    if (focusTarget === "tab") focusCurrentTab();
    if (focusTarget === "page") {
      var page = document.getElementById("page");
      if (page) page.focus();
    }
  }

  // Fetches a fragment; anything unexpected falls back to an ordinary page load.
  function load(url, options, how, focusTarget) {
    options.headers = options.headers || {};
    options.headers[FRAGMENT_HEADER] = "1";
    options.credentials = "same-origin";
    return fetch(url, options).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      if (!response.headers.get(FRAGMENT_HEADER) || type.indexOf("text/html") !== 0) {
        window.location.assign(response.url || url);
        return;
      }
      return response.text().then(function (html) {
        swap(html, response.url || url, how, focusTarget);
      });
    }).catch(function () { window.location.assign(url); });
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
    load(link.href, { method: "GET", headers: withSource("tap") }, "push", "tab");
  });

  // Page forms (search, top-up, mark read...) post back and follow the 303 as a fragment.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("#stage form[data-fragment]")) return;
    event.preventDefault();
    var body = new URLSearchParams(new FormData(form, event.submitter || null));
    var method = (form.getAttribute("method") || "GET").toUpperCase();
    // Read the attribute: the page forms have a field named "action", which shadows form.action.
    var action = new URL(form.getAttribute("action") || "", window.location.href).href;
    if (method === "GET") {
      var target = new URL(action);
      target.search = body.toString();
      load(target.href, { method: "GET" }, "push", "page");
    } else {
      load(action, { method: "POST", body: body }, "replace", "page");
    }
  });

  document.addEventListener("keydown", function (event) {
    var link = event.target.closest && event.target.closest(".tab-bar a.tab");
    if (!link) return;
    var bar = link.closest(".tab-bar");
    var vertical = bar.dataset.axis === "vertical";
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
  window.addEventListener("popstate", function () {
    load(window.location.href, { method: "GET", headers: withSource("history") }, "none", "tab");
  });

  history.replaceState({ tabstage: true }, "", window.location.href);
  applyRovingTabindex();
  presentSheet();
})();
