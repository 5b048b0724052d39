// The dashboard's only script: find the Mini App initData, fetch the page with it, show it.
// Telegram hands initData to the page (URL fragment tgWebAppData, or Telegram.WebApp.initData
// when telegram-web-app.js is present), never to the server: we send it with each request.
"use strict";
(function () {
  var KEY = "quizbot.initData", THEME = "quizbot.theme";
  var hash = new URLSearchParams(location.hash.slice(1));
  var tg = window.Telegram && window.Telegram.WebApp;
  var data = (tg && tg.initData) || hash.get("tgWebAppData") || sessionStorage.getItem(KEY) || "";
  if (data) sessionStorage.setItem(KEY, data);
  var theme = hash.get("tgWebAppThemeParams") || sessionStorage.getItem(THEME);
  if (theme) {
    sessionStorage.setItem(THEME, theme);
    try {
      var params = JSON.parse(theme), root = document.documentElement;
      Object.keys(params).forEach(function (k) {
        if (/^[a-z_]+$/.test(k) && /^#[0-9a-fA-F]{3,8}$/.test(params[k])) {
          root.style.setProperty("--tg-theme-" + k.replace(/_/g, "-"), params[k]);
        }
      });
      root.classList.add("tg");
    } catch (e) { /* no theme: the page's own colours */ }
  }
  // Keep initData out of the address bar and the history once it is saved for this tab.
  if (hash.has("tgWebAppData")) history.replaceState(null, "", location.pathname + location.search);

  function post(type, payload) {
    var body = JSON.stringify(payload || {});
    try {
      if (window.TelegramWebviewProxy) window.TelegramWebviewProxy.postEvent(type, body);
      else if (window.external && "notify" in window.external)
        window.external.notify(JSON.stringify({ eventType: type, eventData: payload || {} }));
      else if (window.parent !== window)
        window.parent.postMessage(JSON.stringify({ eventType: type, eventData: payload || {} }),
          "https://web.telegram.org");
    } catch (e) { /* not in Telegram */ }
  }
  var inTelegram = !!window.TelegramWebviewProxy || window.parent !== window;

  var main = document.getElementById("app");
  fetch("/api/view" + location.search, {
    headers: { Authorization: "tma " + data }, cache: "no-store", credentials: "omit"
  }).then(function (r) {
    document.documentElement.lang = r.headers.get("Content-Language") || "en";
    main.dataset.status = String(r.status);
    return r.text();
  }).then(function (html) {
    main.innerHTML = html;
    main.setAttribute("aria-busy", "false");
    var h = main.querySelector("h1");
    if (h) document.title = h.textContent;
  }).catch(function () {
    // No answer (patchy mobile data): say so in the phone's language (the shell carries the
    // words, gettext's, from the server) and offer to load again with the initData saved above.
    var said = document.createElement("h1"), again = document.createElement("button");
    said.className = "error";
    said.textContent = "⚠️ " + (main.dataset.failed || "");
    again.type = "button";
    again.textContent = main.dataset.retry || "↻";
    again.addEventListener("click", function () { location.reload(); });
    main.replaceChildren(said, again);
    main.setAttribute("aria-busy", "false");
    document.title = said.textContent;
  });

  document.addEventListener("click", function (ev) {
    var back = ev.target.closest && ev.target.closest("a[data-close]");
    if (back) {
      ev.preventDefault();  // back to the chat the Mini App was opened from
      post("web_app_close");
      return;
    }
    var a = ev.target.closest && ev.target.closest("a[data-download]");
    if (a && inTelegram) {
      ev.preventDefault();  // Telegram's own download sheet (Bot API 8.0)
      post("web_app_request_file_download", { url: a.href, file_name: a.getAttribute("download") });
    }
  });
  post("web_app_ready");
  post("web_app_expand");
})();
