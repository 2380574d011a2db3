/* global window, document, location */
// On a slow phone the application's JavaScript takes one or two seconds to come;
// this small script uses them. The build writes it into index.html and pay.html (vite.config.ts
// bootScript), where it runs as the page is read; the server allows it by its hash.
//  - The first screen's own calls start at once, with the addresses the app asks for; the app
//    takes each answer once instead of asking again (`takeEarlyAnswer` in lib/http.ts and
//    pay/api.ts). An answer never taken is dropped with the page. Admin site: the feature flags
//    (app/feature-flags-gate.tsx), and with a session the profile, the stored company's check
//    (shell/route-guard.tsx), the companies, and the calls the screen at this address made on its
//    last first load (src/lib/first-calls.ts: its data, the site's and the company's settings).
//    Payer page: its request (pay/pay-app.tsx).
//  - The screen's page chunk and its imports (`routeFiles`, written in by the build from
//    src/app/routes.tsx, apps/web/vite.config.ts) are preloaded beside the entry's files, instead
//    of once the entry has run.
// /health asks the API nothing (spec 1 §2.1); an embedded view has its own session rules, so it
// is left alone.
(function () {
  var routeFiles = /*route-files*/ null;
  var path = location.pathname;
  if (path === '/health' || window !== window.parent) return;
  var early = (window.__ledgerlineEarly = {});
  // The answers the server wrote into the page with its first screen (#first-screen-answers,
  // above this; app/first-screen.ts takes them): not asked again.
  var given = { company: null, answers: {} };
  try {
    var block = document.getElementById('first-screen-answers');
    if (block) given = JSON.parse(block.textContent);
  } catch {
    // A damaged block: the app asks itself.
  }
  function get(url, credentials, company) {
    var key = company ? company + ' ' + url : url;
    if (early[key] || (given.company === chosen && given.answers[key])) return;
    var headers = { Accept: 'application/json' };
    if (company) headers['Dataset-Id'] = String(company);
    early[key] = fetch(url, { credentials: credentials, headers: headers });
    // Taken or not, a failed call is the app's to report (it asks again), not the window's.
    early[key].catch(function () {});
  }
  var pay = /^\/pay\/([^/]+)\/?$/.exec(path);
  if (pay) {
    // An open request's answer came with the page (#pay-first-answer, above this).
    if (location.search === '' && !document.getElementById('pay-first-answer'))
      get('/api/v0/pay/' + pay[1], 'omit');
    return;
  }
  var chosen = null;
  try {
    var stored = Number(localStorage.getItem('ledgerline.companyId'));
    chosen = stored > 0 && stored % 1 === 0 ? stored : 1;
  } catch {
    // No storage: the app asks itself.
  }
  get('/api/v0/info/feature-flags?target=adminPortal', 'include');
  try {
    if (Number(localStorage.getItem('ledgerline.auth.expiresAt')) > Date.now()) {
      var company = chosen;
      get('/api/v0/users/me', 'include');
      get('/api/v0/data-sets/' + company + '/exists', 'include');
      get('/api/v0/data-sets/all', 'include');
      // The calls this path's first screen made last time (lib/first-calls.ts), a company's only
      // while that company is still the chosen one.
      var remembered = JSON.parse(localStorage.getItem('ledgerline.firstCalls') || '{}')[path];
      var calls = (remembered && remembered.calls) || [];
      for (var c = 0; c < calls.length && c < 16; c++) {
        var call = String(calls[c]);
        var url = call.slice(2);
        if (url.indexOf('/api/v0/') !== 0) continue;
        if (call.charAt(0) === 't') get(url, 'include');
        else if (call.charAt(0) === 'c' && remembered.company === company)
          get(url, 'include', company);
      }
    }
  } catch {
    // No storage: the app asks itself.
  }
  if (!routeFiles) return;
  // The screen whose path matches, a path without parameters before one with (as the router).
  var best = null;
  var bestParameters = Infinity;
  var parts = path.replace(/\/+$/, '').split('/');
  for (var i = 0; i < routeFiles.routes.length; i++) {
    var route = routeFiles.routes[i];
    var pattern = route[0].replace(/\/+$/, '').split('/');
    if (pattern.length !== parts.length) continue;
    var parameters = 0;
    var matches = true;
    for (var j = 0; j < pattern.length && matches; j++) {
      if (pattern[j].charAt(0) === ':') parameters++;
      else matches = pattern[j] === parts[j];
    }
    if (matches && parameters < bestParameters) {
      best = route;
      bestParameters = parameters;
    }
  }
  if (!best) return;
  // After the parser has asked for the entry's own files, which come first.
  setTimeout(function () {
    preload(best[1]);
  }, 0);
  function preload(indexes) {
    for (var k = 0; k < indexes.length; k++) {
      var file = routeFiles.files[indexes[k]];
      var link = document.createElement('link');
      // As the build's own preloading asks for them (crossorigin), so that the answers are reused.
      if (/\.css$/.test(file)) {
        link.rel = 'preload';
        link.as = 'style';
      } else link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = '/' + file;
      document.head.appendChild(link);
    }
  }
})();
