// The replay's keyboard: the arrows step back and forward, Home and End jump to the ends.  The buttons are
// plain links, so the replay works without this script too.
(function () {
  var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    var link = keys[event.key] && document.getElementById(keys[event.key]);
    if (link && link.href) {
      event.preventDefault();
      window.location.assign(link.href);
    }
  });
})();
