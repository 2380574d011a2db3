/**
 * The sign-in pages' only style sheet and script, served from our own origin so the site's CSP
 * (`script-src 'self'`) allows them without inline code. Colours follow the site's Mantine theme
 * (primary blue-6 #228be6, gray-0 background, red-7 errors). Kept as strings so the esbuild bundle
 * in dist/ needs no asset copying.
 */
export const loginCss = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:24px 16px;
  background:#f8f9fa;color:#212529;line-height:1.55;
  font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif,"Apple Color Emoji","Segoe UI Emoji"}
.card{width:100%;max-width:400px;background:#fff;border:1px solid #dee2e6;border-radius:8px;padding:32px;
  box-shadow:0 1px 3px rgba(0,0,0,.05),0 10px 15px -5px rgba(0,0,0,.05),0 7px 7px -5px rgba(0,0,0,.04)}
.wordmark{font-size:22px;font-weight:700;color:#228be6;letter-spacing:-.01em;margin:0 0 20px}
h1{font-size:20px;font-weight:600;margin:0 0 4px}
p{margin:0 0 16px;font-size:14px}
.dimmed{color:#868e96}
.error{color:#e03131;background:#fff5f5;border:1px solid #ffc9c9;border-radius:4px;padding:8px 12px}
label{display:block;font-size:14px;font-weight:500;margin:16px 0 4px}
input[type=email],input[type=password],input[type=text]{display:block;width:100%;height:36px;padding:0 12px;
  font:inherit;font-size:14px;color:inherit;background:#fff;border:1px solid #ced4da;border-radius:4px}
input:focus{outline:none;border-color:#228be6;box-shadow:0 0 0 1px #228be6}
.button{display:block;width:100%;height:36px;margin-top:24px;padding:0 18px;border:0;border-radius:4px;
  background:#228be6;color:#fff;font:inherit;font-size:14px;font-weight:600;cursor:pointer;text-align:center;
  text-decoration:none;line-height:36px}
.button:hover{background:#1c7ed6}
.button:focus-visible{outline:2px solid #228be6;outline-offset:2px}
.link{display:block;margin-top:12px;text-align:center;font-size:14px;color:#228be6;text-decoration:none}
.link:hover{text-decoration:underline}
`;

/**
 * Clicks the marked sign-out button once the page loads, so leaving the site needs no second
 * click when the site proved who it signs out (see login-pages.ts). Without JavaScript the button
 * is simply there to click.
 */
export const logoutScript = `document.addEventListener('DOMContentLoaded', function () {
  var button = document.querySelector('button[data-auto-submit]');
  if (button) button.click();
});
`;
