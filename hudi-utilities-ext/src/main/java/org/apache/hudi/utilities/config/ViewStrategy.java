/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *      http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package org.apache.hudi.utilities.config;

/** How the batches of a view (a SQL file over &lt;TABLE:name&gt; placeholders) compute the rows they write. */
public enum ViewStrategy {

  /** Incremental in every batch; a query that cannot be maintained incrementally fails before any commit. */
  STRICT,

  /**
   * Per batch, incremental or a full recompute, whichever the change estimated from commit metadata favours; always a
   * full recompute for a query that cannot be maintained incrementally.
   */
  AUTO,

  /** A full recompute in every batch (rows gone from the result are deleted from the target). */
  FULL
}
