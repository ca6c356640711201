/**
 * How the tests and benchmarks start Debian's Chromium (ARCHITECTURE "Tests and benchmarks"): headless, no
 * sandbox (root), no GPU, no calls home (this machine's network is closed), autoplay without a gesture, and
 * real host candidates for WebRTC on loopback.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
  '--disable-features=WebRtcHideLocalIpsWithMdns',
];
