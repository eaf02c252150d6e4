// SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
// layout_check.js - appended to a copy of a rendered report by chromium.sh's chromium_layout: it
// measures the laid-out page and writes what does not fit into <pre id="layout-check"> (one
// "LAYOUT:" line each, or "LAYOUT OK"), which --dump-dom then shows. A page that fits has no
// element past the page's right edge (so no sideways scroll), no table cell or paragraph whose text
// is wider than its box, and no chart text outside its SVG's viewBox (the SVG clips it).
(function () {
  var problems = [];
  function describe(el) {
    var section = el.closest('section');
    var where = section && section.className ? 'section.' + section.className + ' ' : '';
    return where + el.tagName.toLowerCase() + ' "' + (el.textContent || '').trim().slice(0, 48) + '"';
  }
  var doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth)
    problems.push('the page is ' + doc.scrollWidth + ' px wide in a ' + doc.clientWidth +
                  ' px window');
  var body = document.body.getBoundingClientRect();
  var edge = body.right - parseFloat(getComputedStyle(document.body).paddingRight);
  var past = new Set();
  document.querySelectorAll('body *').forEach(function (el) {
    if (el.closest('svg') && el.tagName.toLowerCase() !== 'svg') return;
    var r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > edge + 1) {
      past.add(el);
      if (!past.has(el.parentElement)) // the outermost only: its contents go with it
        problems.push(describe(el) + ' ends at ' + Math.round(r.right) + ' px, past the page\'s ' +
                      Math.round(edge) + ' px');
    }
  });
  document.querySelectorAll('td, th, dd, dt, li, p, h1, h2, h3, figcaption').forEach(function (el) {
    if (el.scrollWidth > el.clientWidth + 1)
      problems.push(describe(el) + ' is cut: ' + el.scrollWidth + ' px of text in ' +
                    el.clientWidth + ' px');
  });
  document.querySelectorAll('svg').forEach(function (svg) {
    var box = svg.viewBox.baseVal;
    svg.querySelectorAll('text').forEach(function (t) {
      var b = t.getBBox();
      if (b.x < box.x - 0.5 || b.x + b.width > box.x + box.width + 0.5 || b.y < box.y - 0.5 ||
          b.y + b.height > box.y + box.height + 0.5)
        problems.push('chart text "' + t.textContent + '" spans x ' + b.x.toFixed(1) + ' to ' +
                      (b.x + b.width).toFixed(1) + ', y ' + b.y.toFixed(1) + ' to ' +
                      (b.y + b.height).toFixed(1) + ', outside its chart (0 to ' + box.width +
                      ', 0 to ' + box.height + ')');
    });
  });
  var pre = document.createElement('pre');
  pre.id = 'layout-check';
  pre.textContent = problems.length ? problems.map(function (p) { return 'LAYOUT: ' + p; }).join('\n')
                                    : 'LAYOUT OK';
  document.body.appendChild(pre);
})();
