/** Errors a command handler throws on purpose: the dispatcher turns them into `{ ok:false, error:{code,message} }`. */

/** A command failure with a code of LINK_ERROR_CODES and a message the user can act on. */
export class CommandError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CommandError';
  }
}
