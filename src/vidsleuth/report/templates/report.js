(function () {
  var video = document.getElementById("video");
  function seek(t) {
    if (!video) return;
    var go = function () { video.currentTime = t; };
    if (video.readyState >= 1) go(); else video.addEventListener("loadedmetadata", go, { once: true });
  }
  document.addEventListener("click", function (e) {
    var a = e.target.closest ? e.target.closest("a.ts") : null;
    if (!a) return;
    e.preventDefault();
    var t = parseFloat(a.getAttribute("data-t"));
    if (isFinite(t)) seek(t);
  });
})();
