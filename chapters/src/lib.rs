//! The chapters' figure programs: each chapter module measures the engine and returns its figures.
