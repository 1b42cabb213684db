/**
 * A read result that comes with a note for the caller (say, why every field is null). The api's success
 * envelope puts `message` beside `data`; a result without a note is returned as the data itself.
 */
export class WithMessage<T> {
  constructor(
    readonly data: T,
    readonly message: string,
  ) {}
}
