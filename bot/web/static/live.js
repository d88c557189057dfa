// Times in the reader's zone and language, deadlines as countdowns, and pages that follow the record.
// Without this script every time stays in UTC (as the page says) and a page changes only when reloaded.
//
// A page marked <body data-live> asks for itself again now and then with the ETag it was last sent: the
// answer is 304 while nothing it shows has changed, else the page itself (the same rendering as any reader
// gets, so nothing a public page may not show), whose changed parts replace the ones shown.  "follow" (a
// replay's last step while the game goes on) moves on to each new last step.  Polling stops when the page
// stops being live (a table that has ended), slows down in a hidden tab and after errors.
(function () {
  "use strict";
  var root = document.documentElement;
  var words = root.dataset; // the page's own words: data-in, data-overdue, data-day, data-hour, data-minute, data-zone
  var lang = root.lang || "en";
  var EVERY = 20000, SLOWEST = 300000, HIDDEN_FACTOR = 6;

  var shown;
  try {
    shown = new Intl.DateTimeFormat(lang, { year: "numeric", month: "short", day: "numeric",
                                            hour: "2-digit", minute: "2-digit" });
  } catch (e) {
    return; // no Intl: the UTC text stays
  }

  function left(ms) {
    var minutes = Math.ceil(ms / 60000);
    var d = Math.floor(minutes / 1440), h = Math.floor((minutes % 1440) / 60), m = minutes % 60;
    if (d > 0) return d + "\u00a0" + words.day + (h ? " " + h + "\u00a0" + words.hour : "");
    if (h > 0) return h + "\u00a0" + words.hour + (m ? " " + m + "\u00a0" + words.minute : "");
    return m + "\u00a0" + words.minute;
  }

  function localise(scope) {
    var now = Date.now();
    var times = scope.querySelectorAll("time[datetime]");
    for (var i = 0; i < times.length; i++) {
      var el = times[i], at = Date.parse(el.getAttribute("datetime"));
      if (isNaN(at)) continue;
      if (!el.hasAttribute("title")) el.setAttribute("title", el.textContent); // the UTC text, on hover
      var text = shown.format(at);
      if (el.classList.contains("countdown")) {
        text += " (" + (at > now ? words.in.replace("{time}", left(at - now)) : words.overdue) + ")";
        el.classList.toggle("overdue", at <= now);
      }
      el.textContent = text;
    }
  }

  function sayZone() {
    var zone = document.getElementById("zone");
    var name = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && name && words.zone) zone.textContent = words.zone.replace("{zone}", name);
  }

  // ---------------------------------------------------------------------------------------------- live pages
  var address = location.href, etag = null, wait = EVERY, timer = null, busy = false;

  function live() { return document.body.getAttribute("data-live"); }

  function schedule(ms) {
    clearTimeout(timer);
    if (live()) timer = setTimeout(poll, ms);
  }

  // the new page's changed parts in place of the shown ones: <main>'s children one by one when they line up,
  // else the whole of <main>
  function swap(next) {
    localise(next);
    var main = document.querySelector("main"), fresh = next.querySelector("main");
    if (!main || !fresh) return;
    var a = main.children, b = fresh.children;
    if (a.length !== b.length) {
      main.replaceWith(document.importNode(fresh, true));
    } else {
      for (var i = b.length - 1; i >= 0; i--) {
        if (!a[i].isEqualNode(b[i])) a[i].replaceWith(document.importNode(b[i], true));
      }
    }
    if (next.title) document.title = next.title;
    var mode = next.body.getAttribute("data-live");
    if (mode) document.body.setAttribute("data-live", mode); else document.body.removeAttribute("data-live");
  }

  function poll() {
    if (!live() || busy) return Promise.resolve();
    busy = true;
    var headers = etag ? { "If-None-Match": etag } : {};
    return fetch(address, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 304) return null;
        if (!response.ok) throw new Error("HTTP " + response.status);
        etag = response.headers.get("ETag");
        return response.text();
      })
      .then(function (html) {
        wait = EVERY;
        if (html === null) return false;
        var following = live() === "follow";
        swap(new DOMParser().parseFromString(html, "text/html"));
        var last = following && document.getElementById("last");
        if (last && last.href && last.href !== address) { // the game went on: its new last step
          address = last.href;
          etag = null;
          document.body.setAttribute("data-live", "follow"); // the step shown has stopped being the last
          history.replaceState(null, "", address);
          return true;
        }
        return false;
      }, function () {
        wait = Math.min(wait * 2, SLOWEST);
        return false;
      })
      .then(function (again) {
        busy = false;
        if (again) return poll();
        schedule(document.hidden ? Math.min(wait * HIDDEN_FACTOR, SLOWEST) : wait);
      });
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && live()) poll(); // back in view: catch up at once
  });

  localise(document);
  sayZone();
  setInterval(function () { localise(document); }, 60000); // the countdowns, each minute
  schedule(EVERY);
  // for the browser test: a poll now rather than at the next tick
  window.judgeLive = { poll: poll };
})();
