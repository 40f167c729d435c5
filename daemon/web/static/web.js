// The live feed: server-sent events appended as text (never as HTML).
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var list = document.getElementById("feed");
  if (!list || !window.EventSource) { return; }
  var source = new EventSource(list.dataset.src);
  source.addEventListener("campaign", function (message) {
    var event = JSON.parse(message.data);
    var item = document.createElement("li");
    var kind = document.createElement("strong");
    kind.textContent = "#" + event.seq + " " + event.type;
    item.appendChild(kind);
    item.appendChild(document.createTextNode(" " + event.text));
    list.insertBefore(item, list.firstChild);
    while (list.children.length > 50) { list.removeChild(list.lastChild); }
  });
  source.addEventListener("end", function (message) {
    var item = document.createElement("li");
    item.textContent = "feed ended: " + JSON.parse(message.data).text;
    list.insertBefore(item, list.firstChild);
    source.close();
  });
});
