// The harness page of tests/host/docs_browser.sh loads this: each of its
// iframes shows one page of the site at one window width (an iframe is
// a viewport of its own; chromium's headless window cannot be made as
// narrow as a phone).  Once all have loaded, one line per iframe, for
// chromium --dump-dom to show, tab-separated:
//   PAGE WIDTH CHARS SCROLL VIEWPORT
// PAGE and WIDTH: the iframe's data-page and width; CHARS: how many
// characters of the page's longest prose paragraph (or glossary entry)
// fit on one of its lines; SCROLL: how wide the document is; VIEWPORT:
// how wide the iframe's window is.

// chars_per_line DOC: the longest paragraph of DOC, its text's width
// laid out on one line (in its own fonts, code and all) gives the width
// of an average character of it; 0 if the page has no such paragraph.
function chars_per_line(doc) {
	var longest = null;
	doc.querySelectorAll("main > p, main > dl > dd").forEach(function (p) {
		if (!longest || p.textContent.length > longest.textContent.length)
			longest = p;
	});
	if (!longest || !longest.textContent.length)
		return 0;
	var style = doc.createElement("style");
	style.textContent = ".one-line, .one-line * { white-space: nowrap !important; }";
	doc.head.appendChild(style);
	var line = doc.createElement("span");
	line.className = "one-line";
	line.style.cssText = "position: absolute; visibility: hidden";
	line.innerHTML = longest.innerHTML;
	longest.appendChild(line);
	var per_char = line.getBoundingClientRect().width / line.textContent.length;
	line.remove();
	style.remove();
	return Math.round(longest.getBoundingClientRect().width / per_char);
}

window.addEventListener("load", function () {
	var lines = [];
	document.querySelectorAll("iframe").forEach(function (frame) {
		var doc = frame.contentDocument;
		if (!doc || !doc.documentElement)
			return;		// a missing line fails the test
		lines.push([frame.dataset.page, frame.width, chars_per_line(doc),
			doc.documentElement.scrollWidth,
			doc.documentElement.clientWidth].join("\t"));
	});
	var out = document.createElement("pre");
	out.id = "measured";
	out.textContent = "\n" + lines.join("\n") + "\n";
	document.body.appendChild(out);
});
