/**
 * Single-region commit (docs/architecture.md, "Single-region commit"): a generic transaction whose writes all fall in
 * one region commits with one request to that region, which checks first-committer-wins under the rows' locks, mints
 * a commit version the way the fast path does and writes data and shadow cells in one atomic mutation. What the
 * client and the region server share: the request ({@link io.tidemark.singleregion.SingleRegionCommitRequest}) and
 * the region's refusal to commit ({@link io.tidemark.singleregion.SingleRegionCommitDeclinedException}).
 */
package io.tidemark.singleregion;
