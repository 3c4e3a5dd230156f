<script>
/* Injected by slides/fit.sh into a copy of the deck: visit every slide,
   measure every text node and element on it against the slide's box,
   write the verdict into a pre element, id fit-verdict.  One line per slide:
     H/V ok 'title'
     H/V OVER Npx <tag> 'text' 'title'
   then "slides N overflowing M". */
(function () {
	var TOLERANCE = 1;	/* px, for subpixel rounding */
	function title(s) {
		var h = s.querySelector('h1, h2, h3');
		return "'" + (h ? h.textContent : '').replace(/\s+/g, ' ').slice(0, 60) + "'";
	}
	function excess(r, box) {
		return Math.max(box.left - r.left, r.right - box.right,
			box.top - r.top, r.bottom - box.bottom);
	}
	function measure(s) {
		var box = document.querySelector('.reveal .slides').getBoundingClientRect();
		var worst = 0, what = '';
		function note(px, node, kind) {
			if (px > worst) {
				worst = px;
				var el = node.nodeType === 3 ? node.parentNode : node;
				what = kind + ' <' + el.tagName.toLowerCase() + "> '" +
					(node.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 50) + "'";
			}
		}
		/* text, line by line: what a reader would miss */
		var walker = document.createTreeWalker(s, NodeFilter.SHOW_TEXT);
		var range = document.createRange();
		for (var t = walker.nextNode(); t; t = walker.nextNode()) {
			if (!t.textContent.trim() || t.parentNode.closest('aside.notes'))
				continue;
			range.selectNodeContents(t);
			var rects = range.getClientRects();
			for (var i = 0; i < rects.length; i++)
				if (rects[i].width > 0)
					note(excess(rects[i], box), t, 'text');
		}
		/* boxes: tables, code blocks, images; and anything that scrolls
		   or clips what it holds */
		var els = [s].concat(Array.prototype.slice.call(s.querySelectorAll('*')));
		els.forEach(function (e) {
			if (e.closest('aside.notes'))
				return;
			var r = e.getBoundingClientRect();
			if (r.width === 0 && r.height === 0)
				return;
			note(excess(r, box), e, 'box');
			var st = getComputedStyle(e);
			if (st.overflowX !== 'visible' && e.clientWidth > 0 &&
			    e.scrollWidth - e.clientWidth > TOLERANCE)
				note(e.scrollWidth - e.clientWidth, e, 'clipped');
			if (st.overflowY !== 'visible' && e.clientHeight > 0 &&
			    e.scrollHeight - e.clientHeight > TOLERANCE)
				note(e.scrollHeight - e.clientHeight, e, 'clipped');
		});
		return worst > TOLERANCE ? 'OVER ' + Math.ceil(worst) + 'px ' + what : 'ok';
	}
	function run() {
		Reveal.configure({ transition: 'none', backgroundTransition: 'none' });
		var slides = Reveal.getSlides(), lines = [], over = 0;
		slides.forEach(function (s) {
			var ix = Reveal.getIndices(s);
			Reveal.slide(ix.h, ix.v);
			Reveal.layout();
			var v = measure(s);
			if (v !== 'ok')
				over++;
			lines.push(ix.h + '/' + (ix.v || 0) + ' ' + v + ' ' + title(s));
		});
		lines.push('plugins ' + Object.keys(Reveal.getPlugins()).sort().join(' '));
		lines.push('slides ' + slides.length + ' overflowing ' + over +
			' total ' + Reveal.getTotalSlides());
		var pre = document.createElement('pre');
		pre.id = 'fit-verdict';
		pre.textContent = '\n' + lines.join('\n') + '\n';
		document.body.appendChild(pre);
	}
	if (Reveal.isReady())
		run();
	else
		Reveal.on('ready', run);
})();
</script>
