/** The connectivity notice's texts in English (§2 language 'en'), the complete set. */
export const en = {
  offline: 'You are offline. The console reconnects by itself when the network is back.',
  reconnecting: 'Connection to the server lost. Reconnecting…',
  unreachable: 'The server is still unreachable. The console keeps trying.',
  retry: 'Try now',
};
export type ConnectivityTexts = typeof en;
export type ConnectivityTranslation = { [K in keyof ConnectivityTexts]: string };
