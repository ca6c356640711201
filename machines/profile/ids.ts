/** systemIds of the profile feature's long-lived actors (issue 13 "Profile"). */
export const PROFILE_IDS = {
  form: 'profileForm',
  apiKeys: 'profileApiKeys',
  streamLimits: 'profileStreamLimits',
  storage: 'profileStorage',
  network: 'profileNetwork',
  deviceTokens: 'profileDeviceTokens',
} as const;
