/** Query of a route that takes no parameters: with the global pipe, any query field is a 400. */
export class NoQueryDto {}
