// Sampler entry points: one vendor sampler per slot.
#include "api/api_decls.hpp"
#include "api/handles.hpp"
#include "backend/vendor_info.hpp"
#include "backend/vendor_objects.hpp"
#include "core/info.hpp"
#include "core/sampler.hpp"
#include "core/refusal.hpp"

namespace unicl::api {

cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context context, const cl_sampler_properties *properties,
                                                     cl_int *errcode_ret) {
  if (!live(context)) return fail(errcode_ret, refuse(CL_INVALID_CONTEXT, "context is NULL or not a live context"));
  cl_bool normalized = CL_TRUE;
  cl_addressing_mode addressing = CL_ADDRESS_CLAMP;
  cl_filter_mode filter = CL_FILTER_NEAREST;
  auto s = make_object<_cl_sampler>();
  s->context = Ref<_cl_context>(context);
  if (properties) {
    unsigned seen = 0;
    for (const cl_sampler_properties *p = properties; *p; p += 2) {
      unsigned bit = p[0] == CL_SAMPLER_NORMALIZED_COORDS ? 1 : p[0] == CL_SAMPLER_ADDRESSING_MODE ? 2
                   : p[0] == CL_SAMPLER_FILTER_MODE         ? 4 : 0;
      if (!bit || (seen & bit)) return fail(errcode_ret, refuse(CL_INVALID_VALUE, "a sampler property is unknown or given twice"));
      seen |= bit;
      if (bit == 1) normalized = static_cast<cl_bool>(p[1]);
      if (bit == 2) addressing = static_cast<cl_addressing_mode>(p[1]);
      if (bit == 4) filter = static_cast<cl_filter_mode>(p[1]);
      s->property_list.insert(s->property_list.end(), p, p + 2);
    }
    s->property_list.push_back(0);
  }
  // Checked here: PoCL makes samplers with any addressing or filter value.
  bool known_addressing = addressing == CL_ADDRESS_NONE || addressing == CL_ADDRESS_CLAMP_TO_EDGE ||
                          addressing == CL_ADDRESS_CLAMP || addressing == CL_ADDRESS_REPEAT ||
                          addressing == CL_ADDRESS_MIRRORED_REPEAT;
  bool known_filter = filter == CL_FILTER_NEAREST || filter == CL_FILTER_LINEAR;
  if (!known_addressing || !known_filter || (normalized != CL_TRUE && normalized != CL_FALSE))
    return fail(errcode_ret, refuse(CL_INVALID_VALUE, "the addressing mode, filter mode or normalized coordinates are not values the specification defines"));
  for (size_t i = 0; i < context->slots.size(); ++i) {
    cl_context v = context->vendor(i);
    cl_int err = CL_SUCCESS;
    auto vs = vendor_sampler(v, normalized, addressing, filter, err);
    if (err != CL_SUCCESS) return fail(errcode_ret, err);
    s->per_slot.push_back(std::move(vs));
  }
  return hand_out(std::move(s), errcode_ret);
}

cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized_coords, cl_addressing_mode addressing,
                                       cl_filter_mode filter, cl_int *errcode_ret) {
  cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS, normalized_coords, CL_SAMPLER_ADDRESSING_MODE,
                                   addressing, CL_SAMPLER_FILTER_MODE, filter, 0};
  cl_sampler s = api::clCreateSamplerWithProperties(context, props, errcode_ret);
  if (s) s->property_list.clear();  // CL_SAMPLER_PROPERTIES reports only what the application passed
  return s;
}

cl_int CL_API_CALL clRetainSampler(cl_sampler s) { return retain_handle(s, CL_INVALID_SAMPLER); }
cl_int CL_API_CALL clReleaseSampler(cl_sampler s) { return release_handle(s, CL_INVALID_SAMPLER); }

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler s, cl_sampler_info param, size_t size, void *value, size_t *size_ret) {
  if (!live(s)) return refuse(CL_INVALID_SAMPLER, "sampler is NULL or not a live sampler");
  switch (param) {
    case CL_SAMPLER_REFERENCE_COUNT: return info_value<cl_uint>(size, value, size_ret, s->refs.load());
    case CL_SAMPLER_CONTEXT: return info_value<cl_context>(size, value, size_ret, s->context.get());
    case CL_SAMPLER_PROPERTIES: return info_vector(size, value, size_ret, s->property_list);
    case CL_SAMPLER_NORMALIZED_COORDS:
    case CL_SAMPLER_ADDRESSING_MODE:
    case CL_SAMPLER_FILTER_MODE: {
      cl_sampler v = s->per_slot[0].get();
      return vendor_info(v, param, size, value, size_ret);
    }
    default: return refuse(CL_INVALID_VALUE, "param_name is not a query this object answers");
  }
}

}  // namespace unicl::api
