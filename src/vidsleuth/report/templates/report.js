(function () {
  var video = document.querySelector("video");
  function seek(t) {
    if (!video) return;
    var go = function () { video.currentTime = t; };
    if (video.readyState >= 1) go(); else video.addEventListener("loadedmetadata", go, { once: true });
  }
  document.addEventListener("click", function (e) {
    var a = e.target.closest ? e.target.closest("a[href^='#t=']") : null;
    if (!a) return;
    e.preventDefault();
    var t = parseFloat(a.getAttribute("href").slice(3));
    if (isFinite(t)) seek(t);
  });
})();
