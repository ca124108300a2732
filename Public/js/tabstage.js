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
    placeSheet(sheet);
    window.addEventListener("resize", function () { placeSheet(sheet); });
    sheet.addEventListener("close", function () {
      // The close() above queues a close event of its own; the sheet is open again by then.
      if (sheet.open) return;
      sheet.remove();
      var device = document.querySelector(".device.sheet-shown");
      if (device) device.classList.remove("sheet-shown");
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

  // On a framed device (a bezel around it) the modal sheet is laid over the device's screen, not
  // the window, and only that screen is dimmed. In a stage's frame the window is the screen.
  function placeSheet(sheet) {
    var device = sheet.closest(".device");
    if (!sheet.open || !device || document.documentElement.hasAttribute("data-embedded")) return;
    if (device.clientLeft < 2) {
      sheet.classList.remove("sheet-in-device");
      device.classList.remove("sheet-shown");
      return;
    }
    var box = device.getBoundingClientRect();
    var left = box.left + device.clientLeft, top = box.top + device.clientTop;
    sheet.classList.add("sheet-in-device");
    device.classList.add("sheet-shown");
    sheet.style.left = left + "px";
    sheet.style.width = device.clientWidth + "px";
    sheet.style.top = "auto";
    sheet.style.bottom = Math.max(0, window.innerHeight - (top + device.clientHeight)) + "px";
    sheet.style.maxHeight = device.clientHeight + "px";
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
    // The presenter's panel outside the device follows the page shown (its reset).
    var panel = document.getElementById("presenter");
    var newPanel = holder.querySelector("#presenter");
    if (panel && newPanel && !panel.isEqualNode(newPanel)) panel.replaceWith(newPanel);
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
    var link = event.target.closest && event.target.closest("a.tab, a.more-row, a[data-stage-link], a[data-tap]");
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

  // A click on a screen beside every hotspot flashes them, so that a viewer learns where to tap.
  document.addEventListener("click", function (event) {
    var screen = event.target.closest && event.target.closest(".screen");
    if (!screen || event.target.closest(".hotspot")) return;
    screen.classList.remove("flash");
    void screen.offsetWidth;
    screen.classList.add("flash");
    setTimeout(function () { screen.classList.remove("flash"); }, 700);
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
