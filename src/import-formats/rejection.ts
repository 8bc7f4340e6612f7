// Why a reader or a validator turned one record down (both importers, every format): the field, or the
// part of the record, and the reason. An import goes on past it and reports it.
export interface Rejection {
  field: string;
  reason: string;
}

// A rejection as an import reports it: where in the input the record was (line, or feature index).
export interface ImportRejection extends Rejection {
  position: number;
}
