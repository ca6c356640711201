/**
 * Business constants and limits of spec §9, in one place, units in the names.
 * Where the spec gives two readings, the one we use is named and the other noted.
 */

/** §9 Camera grid: 12 cells per page. */
export const CAMERA_GRID_CELLS_PER_PAGE = 12;
/** §9 Camera grid: 12 columns wide. */
export const CAMERA_GRID_COLUMNS = 12;
/** §9 Layout sizes (w × h, in grid units). */
export const CAMERA_LAYOUT_SIZES = {
  small: { w: 3, h: 6 },
  medium: { w: 4, h: 7 },
  large: { w: 6, h: 6 },
  big: { w: 6, h: 12 },
  xlarge: { w: 12, h: 8 },
  xxlarge: { w: 4, h: 10 },
} as const;
export type CameraLayoutSize = keyof typeof CAMERA_LAYOUT_SIZES;

/** §9 Default devices table: page 1, 5 per page, order by label ascending. */
export const DEVICES_TABLE_DEFAULTS = { page: 1, per_page: 5, order_by: 'label', order_as: 'asc' } as const;

/** §9 Device health check: every 10 s (the other reading is 30 s; we use 10 s for the live view). */
export const DEVICE_HEALTH_INTERVAL_MS = 10_000;
/** §9 Device sync check 1 s. */
export const DEVICE_SYNC_INTERVAL_MS = 1_000;
/** §9 Signalling presence poll 30 s (`peerjs/peerjs/{device_id}`). */
export const SIGNALLING_PRESENCE_POLL_MS = 30_000;
/** §9 Device ping time-out 5000 ms. */
export const DEVICE_PING_TIMEOUT_MS = 5_000;
/** §9 Device connection time-out 5000 ms. */
export const DEVICE_CONNECTION_TIMEOUT_MS = 5_000;
/** §4 §9 Peer connection limit: at most 50 open device links; the oldest is closed first. */
export const PEER_CONNECTION_LIMIT = 50;
/**
 * §9 "Data channel keep-alive every 50 ms": the agent sends a `keepalive` event on every ready link every
 * LINK_KEEPALIVE_INTERVAL_MS; the console closes a link that stayed silent for LINK_SILENCE_TIMEOUT_MS and
 * reconnects. We use 1 s, not 50 ms: with 50 device links, 50 ms would be 1,000 messages a second per tab,
 * and a dead agent (killed, network cut) is still noticed within ~3 s.
 */
export const LINK_KEEPALIVE_INTERVAL_MS = 1_000;
export const LINK_SILENCE_TIMEOUT_MS = 3_000;
/** §9 Stream engine answer wait 60 s, polling 500 ms. */
export const STREAM_ENGINE_ANSWER_WAIT_MS = 60_000;
export const STREAM_ENGINE_POLL_MS = 500;
/** §9 ICE gathering wait 5 s (the other reading is 20000 ms). */
export const ICE_GATHERING_WAIT_MS = 5_000;
/** §9 ICE candidate pool 10. */
export const ICE_CANDIDATE_POOL_SIZE = 10;
/** §9 Frame-rate interval 2000 ms. */
export const FRAME_RATE_INTERVAL_MS = 2_000;
/** §9 Failed chunk reload after 3 s. */
export const FAILED_CHUNK_RELOAD_MS = 3_000;
/** §9 Token refresh retried once. */
export const TOKEN_REFRESH_RETRIES = 1;
/** §9 Device token expiry 5184000 s (60 days). */
export const DEVICE_TOKEN_EXPIRY_S = 5_184_000;
/** §9 Access token expiry: config-based, default 1 day. */
export const ACCESS_TOKEN_EXPIRY_S = 86_400;
/** Refresh tokens live 30 days (not in the spec; a common choice). */
export const REFRESH_TOKEN_EXPIRY_S = 30 * 86_400;
/**
 * Browser token (signalling) lifetime (issue 15 "tokens never in URLs"): only long enough to open the PeerJS
 * socket; it travels as an HttpOnly cookie of that lifetime (SIGNALLING_COOKIE_PREFIX) and the console
 * fetches a new one before every (re)connect.
 */
export const BROWSER_TOKEN_EXPIRY_S = 120;
/** Name prefix of the signalling cookie: `edge_sig_<browser peer id>`, Path=PEERJS_PATH, HttpOnly, Strict. */
export const SIGNALLING_COOKIE_PREFIX = 'edge_sig_';
/** Device link grant lifetime: short, it is only checked when the link opens. */
export const DEVICE_GRANT_EXPIRY_S = 60;
/** §9 Quick search: minimum 2 characters, 200 ms debounce. */
export const QUICK_SEARCH_MIN_CHARS = 2;
export const QUICK_SEARCH_DEBOUNCE_MS = 200;
/** §2 §9 Sidebar collapses under width 1155 px. */
export const SIDEBAR_COLLAPSE_WIDTH_PX = 1155;
/** §9 Chipset id '0' is x86; any other value is Jetson. */
export const X86_CHIPSET_ID = '0';
/** §9 Recorded video codec. */
export const RECORDED_VIDEO_CODEC = 'vp8';
/** §2 Supported interface languages, default en. */
export const LANGUAGES = ['en', 'ch', 'es', 'jp', 'de', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** §3 Stored settings: local-storage key names for the id token, the refresh token and the client token. */
export const STORAGE_KEYS = {
  idToken: 'id_token',
  refreshToken: 'refresh_token',
  clientToken: 'client_token',
  language: 'language',
  user: 'user_info',
} as const;

/** Base path of the REST API (spec §7 path shapes are relative to it). */
export const API_BASE = '/api/';
/** Path the PeerJS signalling server is mounted at. */
export const PEERJS_PATH = '/peerjs';
/** PeerJS key (the PeerJS server's API key; authentication is the `token` query parameter). */
export const PEERJS_KEY = 'peerjs';
